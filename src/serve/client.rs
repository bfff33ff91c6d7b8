//! The window's side of a served campaign (File > Open served campaign…):
//! the side's link as `umpire serve token` prints it, the side's report and
//! orders read from the server, and orders given through its API
//! (docs/api.md). Blocking calls with a time limit; the window runs them on a
//! thread of their own and waits for the answer without stopping its frames.

use crate::model::SideId;
use crate::model::report::{Report, read_report};
use std::time::Duration;

/// How long one call may take before the window says the server is not answering.
const CALL_LIMIT: Duration = Duration::from_secs(20);

/// What went wrong talking to the server, said for the player.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error(
        "`{link}` is not a served campaign's link: a side's should read like http://HOST:PORT/campaigns/CAMPAIGN/sides/SIDE?token=TOKEN, the umpire's like http://HOST:PORT/campaigns/CAMPAIGN?token=TOKEN, as `umpire serve token` prints them ({why})"
    )]
    Link { link: String, why: &'static str },
    #[error(
        "the server at {url} could not be reached: {why}. Check the address and that `umpire serve` is running there"
    )]
    Unreachable { url: String, why: String },
    #[error("the server refused ({status}): {message}")]
    Refused {
        status: u16,
        message: String,
        /// Each problem of the orders, with its line in the orders file.
        problems: Vec<(Option<usize>, String)>,
        /// The save's revision now, when the refusal is for a stale one.
        current: Option<u64>,
    },
    #[error("the server's answer could not be read ({url}): {why}")]
    Answer { url: String, why: String },
}

impl ClientError {
    /// Whether the save changed since the view was read (someone else's
    /// change): read it again before giving orders.
    pub fn is_stale(&self) -> bool {
        matches!(self, ClientError::Refused { status: 409, .. })
    }

    /// Whether the save moved on from the revision sent (a 409 naming the
    /// revision now), rather than refusing for another reason.
    pub fn moved_on(&self) -> bool {
        matches!(
            self,
            ClientError::Refused {
                status: 409,
                current: Some(_),
                ..
            }
        )
    }
}

/// A side's link to a served campaign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// `http://host:port` (or `https://`, behind a reverse proxy), with any path before `/campaigns`.
    pub base: String,
    pub campaign: String,
    pub side: SideId,
    pub token: String,
}

/// A served link's path (before `?`) and token, with the link kept to say
/// what is wrong with it.
pub(super) struct LinkParts<'a> {
    pub path: &'a str,
    pub token: &'a str,
    pub bad: Box<dyn Fn(&'static str) -> ClientError + 'a>,
}

impl<'a> LinkParts<'a> {
    /// Splits `text` (trimmed): `http(s)://...?token=TOKEN`.
    pub fn of(text: &'a str) -> Result<LinkParts<'a>, ClientError> {
        let link = text.trim();
        let bad = move |why| ClientError::Link {
            link: link.to_owned(),
            why,
        };
        if !(link.starts_with("http://") || link.starts_with("https://")) {
            return Err(bad("it does not start with http:// or https://"));
        }
        let (path, query) = link.split_once('?').ok_or_else(|| bad("it has no ?token="))?;
        let token = query
            .split('&')
            .find_map(|pair| pair.strip_prefix("token="))
            .filter(|t| !t.is_empty())
            .ok_or_else(|| bad("it has no token="))?;
        Ok(LinkParts {
            path,
            token,
            bad: Box::new(bad),
        })
    }
}

/// A campaign's or a side's name as a link may carry it: not empty, letters,
/// digits and `-_.%` only.
pub(super) fn plain_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '%'))
}

impl Link {
    /// Reads the link `umpire serve token SAVE SIDE` prints.
    pub fn parse(text: &str) -> Result<Link, ClientError> {
        let LinkParts { path, token, bad } = LinkParts::of(text)?;
        let (base, rest) = path
            .rsplit_once("/campaigns/")
            .ok_or_else(|| bad("it has no /campaigns/"))?;
        let (campaign, side) = rest
            .split_once("/sides/")
            .ok_or_else(|| bad("it has no /sides/ after the campaign"))?;
        let side = side.trim_end_matches('/');
        if !plain_name(campaign) || !plain_name(side) {
            return Err(bad("the campaign or the side is missing or has odd characters"));
        }
        Ok(Link {
            base: base.to_owned(),
            campaign: campaign.to_owned(),
            side: SideId::new(side),
            token: token.to_owned(),
        })
    }

    fn api(&self, tail: &str) -> String {
        format!(
            "{}/api/campaigns/{}/sides/{}/{tail}",
            self.base, self.campaign, self.side
        )
    }

    /// The side's orders page in a browser.
    pub fn page(&self) -> String {
        format!(
            "{}/campaigns/{}/sides/{}?token={}",
            self.base, self.campaign, self.side, self.token
        )
    }
}

/// The side's view as the server gave it.
#[derive(Debug, Clone)]
pub struct Served {
    /// The save's revision the report was computed from.
    pub revision: u64,
    pub report: Report,
    /// Whether the side has given orders for this game move.
    pub given: bool,
    /// The deadline the umpire set, as the server says it, if any.
    pub deadline: Option<String>,
    /// The orders the side has given for this game move (on its page or
    /// from a window), if any.
    pub orders: Option<crate::strategy::OrderSet>,
}

/// The server's answer to orders given.
#[derive(Debug, Clone)]
pub struct Given {
    /// The save's revision after the orders.
    pub revision: u64,
    pub message: String,
}

pub(super) fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(CALL_LIMIT))
        .http_status_as_error(false)
        .build()
        .into()
}

/// A refusal's body, as docs/api.md writes it.
#[derive(Debug, Default, serde::Deserialize)]
struct Refusal {
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    problems: Vec<Problem>,
    #[serde(default)]
    revision: Option<u64>,
}

#[derive(Debug, serde::Deserialize)]
struct Problem {
    #[serde(default)]
    line: Option<usize>,
    #[serde(default)]
    message: String,
}

#[derive(Debug, serde::Deserialize)]
struct ReportAnswer {
    revision: u64,
    report: serde_json::Value,
}

#[derive(Debug, serde::Deserialize)]
struct OrdersAnswer {
    #[serde(default)]
    given: bool,
    #[serde(default)]
    orders: Option<crate::strategy::OrderSet>,
    #[serde(default)]
    deadline: Option<serde_json::Value>,
}

#[derive(Debug, serde::Deserialize)]
struct GivenAnswer {
    revision: u64,
    /// "1 march, 1 hold".
    #[serde(default)]
    summary: Option<String>,
}

/// The largest answer read (ureq's own default is 10 MB): the umpire's
/// `/state` holds the whole campaign with every event of a long campaign.
const ANSWER_LIMIT_BYTES: u64 = 256 * 1024 * 1024;

/// Reads an answer: its body on success, else the server's sentence.
pub(super) fn answer<T: serde::de::DeserializeOwned>(
    url: &str,
    result: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
) -> Result<T, ClientError> {
    let mut response = result.map_err(|e| ClientError::Unreachable {
        url: url.to_owned(),
        why: e.to_string(),
    })?;
    let status = response.status().as_u16();
    let text = response
        .body_mut()
        .with_config()
        .limit(ANSWER_LIMIT_BYTES)
        .read_to_string()
        .map_err(|e| ClientError::Answer {
            url: url.to_owned(),
            why: e.to_string(),
        })?;
    if (200..300).contains(&status) {
        return serde_json::from_str(&text).map_err(|e| ClientError::Answer {
            url: url.to_owned(),
            why: e.to_string(),
        });
    }
    let refusal: Refusal = serde_json::from_str(&text).unwrap_or_default();
    Err(ClientError::Refused {
        status,
        message: refusal.error.unwrap_or_else(|| format!("HTTP {status}")),
        problems: refusal
            .problems
            .into_iter()
            .map(|p| (p.line, p.message))
            .collect(),
        current: refusal.revision,
    })
}

/// The side's report and whether it has given orders, from the server.
pub fn fetch(link: &Link) -> Result<Served, ClientError> {
    let agent = agent();
    let bearer = format!("Bearer {}", link.token);
    let url = link.api("report");
    let body: ReportAnswer = answer(&url, agent.get(&url).header("Authorization", &bearer).call())?;
    let report = read_report(&body.report.to_string()).map_err(|e| ClientError::Answer {
        url: url.clone(),
        why: e.to_string(),
    })?;
    let url = link.api("orders");
    let orders: OrdersAnswer = answer(&url, agent.get(&url).header("Authorization", &bearer).call())?;
    // Unix seconds, as docs/api.md keeps it.
    let deadline = match orders.deadline {
        Some(serde_json::Value::Number(n)) => n.as_i64().map(crate::desk::served::deadline_text),
        Some(serde_json::Value::String(s)) => Some(s),
        _ => None,
    };
    Ok(Served {
        revision: body.revision,
        report,
        given: orders.given,
        deadline,
        orders: orders.orders,
    })
}

/// Gives the side's orders (an orders file's text) on `revision`, with
/// `key` as the idempotency key: the same key again (a retry after a lost
/// answer) is applied once.
pub fn give_orders(link: &Link, revision: u64, orders: &str, key: &str) -> Result<Given, ClientError> {
    let url = link.api("orders");
    let body = serde_json::json!({ "revision": revision, "orders": orders }).to_string();
    let request = agent()
        .put(&url)
        .header("Authorization", &format!("Bearer {}", link.token))
        .header("Content-Type", "application/json")
        .header("Idempotency-Key", key)
        .send(body.as_bytes());
    let given: GivenAnswer = answer(&url, request)?;
    Ok(Given {
        revision: given.revision,
        message: given
            .summary
            .map_or_else(|| "orders taken.".to_owned(), |s| format!("orders taken: {s}.")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_link_is_read_and_bad_ones_say_why() {
        let link =
            Link::parse(" http://club.example:7878/campaigns/egypt/sides/british?token=abc123 ").unwrap();
        assert_eq!(link.base, "http://club.example:7878");
        assert_eq!(link.campaign, "egypt");
        assert_eq!(link.side.as_str(), "british");
        assert_eq!(link.token, "abc123");
        assert_eq!(
            link.api("orders"),
            "http://club.example:7878/api/campaigns/egypt/sides/british/orders"
        );
        let behind =
            Link::parse("https://club.example/umpire/campaigns/egypt/sides/rebels/?token=t").unwrap();
        assert_eq!(behind.base, "https://club.example/umpire");
        assert_eq!(behind.side.as_str(), "rebels");
        for (bad, why) in [
            ("club.example/campaigns/egypt/sides/british?token=t", "http"),
            ("http://club.example/campaigns/egypt/sides/british", "token"),
            (
                "http://club.example/campaigns/egypt/sides/british?token=",
                "token",
            ),
            ("http://club.example/egypt/sides/british?token=t", "/campaigns/"),
            ("http://club.example/campaigns/egypt?token=t", "/sides/"),
            (
                "http://club.example/campaigns/eg ypt/sides/british?token=t",
                "odd characters",
            ),
        ] {
            let e = Link::parse(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
            assert!(e.contains("umpire serve token"), "{e}");
        }
    }
}
