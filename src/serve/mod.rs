//! `umpire serve`: the umpire's server, the only network code. axum on
//! tokio serves every save in one folder (`saves.rs`) through the JSON API
//! of docs/api.md (`api.rs`), each request a thin shell over a `desk`
//! operation run on tokio's blocking pool, one request at a time per save.
//! Tokens (`token.rs`) are kept in the save as hashes. The window's side of
//! it is `client.rs`; the webhook reminders `remind.rs`.

mod api;
pub mod client;
pub mod remind;
pub mod saves;
pub mod token;
pub mod umpire_client;

use saves::Saves;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

/// The address `umpire serve` listens on unless told otherwise.
pub const DEFAULT_BIND: &str = "127.0.0.1:7878";

/// The largest request body taken, in bytes: a larger one gets 413.
pub const BODY_LIMIT: usize = 256 * 1024;

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(
        "{dir}: not a folder this server can read ({why}); give the folder holding the campaign saves (*.umpire)"
    )]
    NoFolder { dir: String, why: String },
    #[error("cannot listen on {addr}: {why}; choose another address or port with --bind ADDR:PORT")]
    Bind { addr: String, why: String },
    #[error("the server's runtime could not start: {0}")]
    Runtime(String),
    #[error("the server stopped: {0}")]
    Stopped(String),
}

/// A server running on threads of its own; dropped, it stops.
#[derive(Debug)]
pub struct Running {
    /// Where it listens.
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, ServeError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| ServeError::Runtime(e.to_string()))
}

fn check_folder(dir: &Path) -> Result<(), ServeError> {
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(ServeError::NoFolder {
            dir: dir.display().to_string(),
            why: "it is a file".to_owned(),
        }),
        Err(e) => Err(ServeError::NoFolder {
            dir: dir.display().to_string(),
            why: e.to_string(),
        }),
    }
}

async fn bind(addr: SocketAddr) -> Result<tokio::net::TcpListener, ServeError> {
    tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| ServeError::Bind {
            addr: addr.to_string(),
            why: e.to_string(),
        })
}

/// Starts a server for the saves in `dir` on `addr` (port 0: any free port)
/// on threads of its own, and returns once it listens.
pub fn start(dir: &Path, addr: SocketAddr) -> Result<Running, ServeError> {
    check_folder(dir)?;
    let rt = runtime()?;
    let listener = rt.block_on(bind(addr))?;
    let addr = listener.local_addr().map_err(|e| ServeError::Bind {
        addr: addr.to_string(),
        why: e.to_string(),
    })?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let saves = Arc::new(Saves::new(dir));
    let thread = std::thread::spawn(move || {
        rt.block_on(async move {
            let ticker = tokio::spawn(api::deadlines(Arc::clone(&saves)));
            let _ = axum::serve(listener, api::router(saves))
                .with_graceful_shutdown(async {
                    let _ = stopped.await;
                })
                .await;
            ticker.abort();
        });
    });
    Ok(Running {
        addr,
        stop: Some(stop),
        thread: Some(thread),
    })
}

/// `umpire serve DIR --bind ADDR`: serves the saves in `dir` on `addr` until
/// Ctrl-C; `listening` is told the address once it listens.
pub fn run(dir: &Path, addr: SocketAddr, listening: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    check_folder(dir)?;
    let rt = runtime()?;
    let saves = Arc::new(Saves::new(dir));
    rt.block_on(async move {
        let listener = bind(addr).await?;
        let addr = listener.local_addr().map_err(|e| ServeError::Bind {
            addr: addr.to_string(),
            why: e.to_string(),
        })?;
        listening(addr);
        tokio::spawn(api::deadlines(Arc::clone(&saves)));
        axum::serve(listener, api::router(saves))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| ServeError::Stopped(e.to_string()))
    })
}
