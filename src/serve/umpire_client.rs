//! The window's side of a served campaign for the umpire (File > Open served
//! campaign… with the umpire's link): the whole campaign as the umpire sees
//! it (`GET /api/campaigns/{id}/state`), and the umpire's writes through the
//! API, each sent with the revision the view was read at (docs/api.md).
//! Blocking calls with a time limit, run by the window on a thread of their own.

use super::client::{ClientError, Link, LinkParts, agent, answer, plain_name};
use crate::model::{Campaign, Event, SideId};
use crate::strategy::OrderSet;

/// The umpire's link to a served campaign:
/// `http://HOST:PORT/campaigns/CAMPAIGN?token=TOKEN`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UmpireLink {
    /// `http://host:port` (or `https://`), with any path before `/campaigns`.
    pub base: String,
    pub campaign: String,
    pub token: String,
}

/// A served campaign's link: a side's or the umpire's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyLink {
    Side(Link),
    Umpire(UmpireLink),
}

/// Reads a link as `umpire serve token` prints it: with `/sides/SIDE` a
/// side's, else the umpire's.
pub fn parse_link(text: &str) -> Result<AnyLink, ClientError> {
    let path = text.split('?').next().unwrap_or_default();
    if path.contains("/sides/") {
        Link::parse(text).map(AnyLink::Side)
    } else {
        UmpireLink::parse(text).map(AnyLink::Umpire)
    }
}

impl UmpireLink {
    /// Reads the umpire's link (`.../campaigns/CAMPAIGN?token=TOKEN`; the
    /// API's address `.../api/campaigns/CAMPAIGN?token=TOKEN` is taken too).
    pub fn parse(text: &str) -> Result<UmpireLink, ClientError> {
        let LinkParts { path, token, bad } = LinkParts::of(text)?;
        let (base, campaign) = path
            .trim_end_matches('/')
            .rsplit_once("/campaigns/")
            .ok_or_else(|| bad("it has no /campaigns/"))?;
        let base = base.strip_suffix("/api").unwrap_or(base);
        if !plain_name(campaign) {
            return Err(bad("the campaign is missing or has odd characters"));
        }
        Ok(UmpireLink {
            base: base.to_owned(),
            campaign: campaign.to_owned(),
            token: token.to_owned(),
        })
    }

    fn api(&self, tail: &str) -> String {
        format!("{}/api/campaigns/{}{tail}", self.base, self.campaign)
    }
}

/// A side as the umpire's view from the server shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
pub struct SideStatus {
    pub id: SideId,
    pub name: String,
    /// Whether it has given orders for the game move.
    pub orders_given: bool,
    /// Whether the program plays it (it gives its orders at resolve).
    pub programmed: bool,
}

/// The server's settings for the campaign.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
pub struct Settings {
    #[serde(default)]
    pub auto_resolve: bool,
    /// Unix seconds.
    #[serde(default)]
    pub deadline: Option<i64>,
}

/// The whole campaign as the umpire sees it, from the server.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
pub struct UmpireServed {
    /// The save's revision it was read at: the umpire's writes send it back.
    pub revision: u64,
    pub campaign: Campaign,
    /// Every event of the campaign, oldest first (undone ones too).
    pub events: Vec<Event>,
    /// The orders given for the game move, not yet resolved.
    pub orders: Vec<OrderSet>,
    pub sides: Vec<SideStatus>,
    /// The pending battles, in words.
    #[serde(default)]
    pub pending_battles: Vec<String>,
    pub settings: Settings,
}

impl UmpireServed {
    /// The deadline in words, if one is set.
    pub fn deadline(&self) -> Option<String> {
        self.settings.deadline.map(crate::desk::served::deadline_text)
    }
}

fn get<T: serde::de::DeserializeOwned>(link: &UmpireLink, tail: &str) -> Result<T, ClientError> {
    let url = link.api(tail);
    answer(
        &url,
        agent()
            .get(&url)
            .header("Authorization", &format!("Bearer {}", link.token))
            .call(),
    )
}

fn post<T: serde::de::DeserializeOwned>(
    link: &UmpireLink,
    tail: &str,
    body: &serde_json::Value,
) -> Result<T, ClientError> {
    let url = link.api(tail);
    answer(
        &url,
        agent()
            .post(&url)
            .header("Authorization", &format!("Bearer {}", link.token))
            .header("Content-Type", "application/json")
            .send(body.to_string().as_bytes()),
    )
}

/// The whole campaign as the umpire sees it.
pub fn fetch(link: &UmpireLink) -> Result<UmpireServed, ClientError> {
    get(link, "/state")
}

#[derive(Debug, serde::Deserialize)]
struct Resolved {
    turn: u32,
    next_turn: u32,
    #[serde(default)]
    events: Vec<serde_json::Value>,
}

/// Resolves the game move, if the save is still at `revision`; `with_pending`:
/// even while battles are pending (they stay pending). Says what was done.
pub fn resolve(link: &UmpireLink, revision: u64, with_pending: bool) -> Result<String, ClientError> {
    let body = serde_json::json!({ "revision": revision, "with_pending": with_pending });
    let done: Resolved = post(link, "/resolve", &body)?;
    Ok(format!(
        "Game move {} resolved on the server ({} event{}); orders for game move {} are open.",
        done.turn,
        done.events.len(),
        if done.events.len() == 1 { "" } else { "s" },
        done.next_turn
    ))
}

#[derive(Debug, serde::Deserialize)]
struct Undone {
    undone: String,
    #[serde(default)]
    turn: Option<u32>,
    #[serde(default)]
    side: Option<String>,
    #[serde(default)]
    battle: Option<u32>,
}

/// Takes back the last change, if the save is still at `revision`. Says what was taken back.
pub fn undo(link: &UmpireLink, revision: u64) -> Result<String, ClientError> {
    let done: Undone = post(link, "/undo", &serde_json::json!({ "revision": revision }))?;
    let turn = done
        .turn
        .map_or_else(String::new, |t| format!(" of game move {t}"));
    let what = match done.undone.as_str() {
        "orders" => format!("the orders{turn} of {}", done.side.as_deref().unwrap_or("a side")),
        "game_move" => format!("game move {}", done.turn.unwrap_or_default()),
        "battle_result" => format!(
            "the result of battle {}",
            done.battle.map_or_else(String::new, |b| b.to_string())
        ),
        "edit" => format!("the umpire's last edit{turn}"),
        other => other.replace('_', " "),
    };
    Ok(format!("Took back {what} on the server."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_umpires_link_is_read_and_a_sides_told_apart() {
        for text in [
            "http://club.example:7878/campaigns/egypt?token=abc",
            " http://club.example:7878/api/campaigns/egypt/?token=abc ",
        ] {
            let Ok(AnyLink::Umpire(link)) = parse_link(text) else {
                panic!("{text}: not the umpire's link");
            };
            assert_eq!(link.base, "http://club.example:7878");
            assert_eq!(link.campaign, "egypt");
            assert_eq!(link.token, "abc");
            assert_eq!(
                link.api("/state"),
                "http://club.example:7878/api/campaigns/egypt/state"
            );
        }
        assert!(matches!(
            parse_link("http://club.example/campaigns/egypt/sides/british?token=t"),
            Ok(AnyLink::Side(_))
        ));
        for (bad, why) in [
            ("club.example/campaigns/egypt?token=t", "http"),
            ("http://club.example/campaigns/egypt", "token"),
            ("http://club.example/egypt?token=t", "/campaigns/"),
            ("http://club.example/campaigns/eg ypt?token=t", "odd characters"),
            ("http://club.example/campaigns/?token=t", "/campaigns/"),
        ] {
            let e = parse_link(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
            assert!(e.contains("the umpire's like"), "{e}");
        }
    }
}
