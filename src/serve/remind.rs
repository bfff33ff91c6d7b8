//! Reminders: the server calls the club's webhook (a chat room's incoming
//! hook, or any address that takes a JSON POST) when a game move is resolved
//! and before the deadline, for each side that has not given its orders.
//! A campaign setting (`umpire serve remind SAVE URL`, or the umpire's API);
//! off by default. Each reminder is sent once (the save keeps which were
//! sent), and a webhook that does not answer never holds up a game move: the
//! server sends from a task of its own and says the failure in its log.
//!
//! The payload is plain JSON with a `text` sentence, so most chat hooks show
//! it as it is: `{"text": "...", "campaign": ..., "event": ..., ...}`.

use serde::Serialize;
use std::time::Duration;

/// How long one webhook call may take.
const CALL_LIMIT: Duration = Duration::from_secs(10);

/// What a reminder is about.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Occasion {
    /// The game move `turn` was resolved; orders are wanted for `turn + 1`.
    Resolved {
        campaign: String,
        title: String,
        turn: u32,
        battles_pending: usize,
    },
    /// The deadline of game move `turn` is near, and `sides` have not given orders.
    DeadlineNear {
        campaign: String,
        title: String,
        turn: u32,
        deadline: String,
        sides: Vec<String>,
    },
}

impl Occasion {
    /// The sentence a person reads in the chat room.
    pub fn text(&self) -> String {
        match self {
            Occasion::Resolved {
                title,
                turn,
                battles_pending,
                ..
            } => {
                let battles = match battles_pending {
                    0 => String::new(),
                    1 => " 1 battle waits to be fought.".to_owned(),
                    n => format!(" {n} battles wait to be fought."),
                };
                format!(
                    "{title}: game move {turn} is resolved; orders for game move {} are open.{battles}",
                    turn.saturating_add(1)
                )
            }
            Occasion::DeadlineNear {
                title,
                turn,
                deadline,
                sides,
                ..
            } => format!(
                "{title}: the orders for game move {turn} are due by {deadline}; still to give them: {}.",
                sides.join(", ")
            ),
        }
    }

    /// The JSON body posted to the webhook.
    pub fn payload(&self) -> serde_json::Value {
        let mut body = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        if let serde_json::Value::Object(map) = &mut body {
            map.insert("text".to_owned(), serde_json::Value::String(self.text()));
        }
        body
    }
}

/// Why a webhook call failed.
#[derive(Debug, thiserror::Error)]
pub enum RemindError {
    #[error("the webhook {url} could not be reached: {why}")]
    Unreachable { url: String, why: String },
    #[error("the webhook {url} answered {status}")]
    Refused { url: String, status: u16 },
}

/// Whether `url` may be a webhook: http or https, nothing else (no file or
/// other scheme reaches the machine's own files).
pub fn check_webhook(url: &str) -> Result<(), String> {
    let url = url.trim();
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .ok_or_else(|| format!("`{url}` is not an http:// or https:// address"))?;
    if rest.is_empty() || rest.starts_with('/') || rest.contains(char::is_whitespace) {
        return Err(format!("`{url}` has no host"));
    }
    Ok(())
}

/// Posts the reminder to the webhook (blocking; the server calls it from a
/// blocking task).
pub fn send(url: &str, occasion: &Occasion) -> Result<(), RemindError> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(CALL_LIMIT))
        .http_status_as_error(false)
        .build()
        .into();
    let body = occasion.payload().to_string();
    let answer = agent
        .post(url)
        .header("Content-Type", "application/json")
        .send(body.as_bytes())
        .map_err(|e| RemindError::Unreachable {
            url: url.to_owned(),
            why: e.to_string(),
        })?;
    let status = answer.status().as_u16();
    if (200..300).contains(&status) {
        Ok(())
    } else {
        Err(RemindError::Refused {
            url: url.to_owned(),
            status,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reminders_say_what_happened_in_a_sentence() {
        let resolved = Occasion::Resolved {
            campaign: "egypt".into(),
            title: "The Egyptian Rebellion of 1895".into(),
            turn: 4,
            battles_pending: 1,
        };
        assert_eq!(
            resolved.text(),
            "The Egyptian Rebellion of 1895: game move 4 is resolved; orders for game move 5 are open. 1 battle waits to be fought."
        );
        let body = resolved.payload();
        assert_eq!(body["event"], "resolved");
        assert_eq!(body["turn"], 4);
        assert_eq!(body["text"], resolved.text());
        let due = Occasion::DeadlineNear {
            campaign: "egypt".into(),
            title: "Egypt".into(),
            turn: 5,
            deadline: "2026-12-01 20:00 UTC".into(),
            sides: vec!["Army of the Rebellion".into()],
        };
        assert_eq!(
            due.text(),
            "Egypt: the orders for game move 5 are due by 2026-12-01 20:00 UTC; still to give them: Army of the Rebellion."
        );
        assert_eq!(due.payload()["event"], "deadline_near");
    }

    #[test]
    fn only_http_addresses_are_webhooks() {
        for good in ["http://127.0.0.1:9000/hook", "https://chat.example/hooks/abc"] {
            assert!(check_webhook(good).is_ok(), "{good}");
        }
        for bad in [
            "file:///etc/passwd",
            "ftp://x",
            "http://",
            "https:///x",
            "hooks.example",
            "http://a b",
        ] {
            assert!(check_webhook(bad).is_err(), "{bad}");
        }
    }
}
