//! The server's access tokens: 256 bits from the operating system, written
//! as 64 hex digits; kept in the save only as the SHA-256 hash of that text
//! (`Store::add_token`), found by hash in constant time (`Store::token_seat`).

use sha2::{Digest, Sha256};

/// Why no token could be made.
#[derive(Debug, thiserror::Error)]
#[error("the operating system gave no random bytes for the token ({0}); try again")]
pub struct NoRandom(String);

/// A new token and its hash, the one thing kept of it.
pub fn new_token() -> Result<(String, [u8; 32]), NoRandom> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| NoRandom(e.to_string()))?;
    let text: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let hash = hash_token(&text);
    Ok((text, hash))
}

/// The SHA-256 hash of a token's text.
pub fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// The SHA-256 hash of a request's body (the idempotency key's request).
pub fn hash_body(body: &[u8]) -> [u8; 32] {
    Sha256::digest(body).into()
}
