//! Stands: the model soldiers' trays that make up a force.

use super::ids::StandId;
use super::vocabulary;
use serde::{Deserialize, Serialize};

vocabulary! {
    /// The kind of troops on a stand. Covers the troops of every seed rule set;
    /// each rule set maps these to its own units.
    pub enum StandKind {
        LineInfantry = "line_infantry",
        LightInfantry = "light_infantry",
        GrenadierInfantry = "grenadier_infantry",
        GuardInfantry = "guard_infantry",
        HeavyCavalry = "heavy_cavalry",
        LightCavalry = "light_cavalry",
        MountedInfantry = "mounted_infantry",
        FootArtillery = "foot_artillery",
        HorseArtillery = "horse_artillery",
        /// A Maxim gun.
        MachineGun = "machine_gun",
        NativeSpearmen = "native_spearmen",
        NativeRiflemen = "native_riflemen",
        /// Native regular infantry, the hard core of a native army.
        NativeRegulars = "native_regulars",
        Transport = "transport",
        Command = "command",
    }
}

vocabulary! {
    /// Training and spirit of a stand's troops.
    pub enum Quality {
        Elite = "elite",
        Trained = "trained",
        Raw = "raw",
    }
}

vocabulary! {
    /// The broad arm of service, for rules that treat arms in turn (the
    /// supply attrition of the Strategic Rules removes infantry, then cavalry).
    pub enum Arm {
        Infantry = "infantry",
        Cavalry = "cavalry",
        Artillery = "artillery",
        Support = "support",
    }
}

impl StandKind {
    /// Full strength in points on the roster scale of the 1965 rules.
    ///
    /// Source: `scruby-1965-unbalanced-equality.txt`, TABLES, Combat Table,
    /// column "Combat Power (Stand)": British and native regular infantry 100,
    /// mounted infantry 50, heavy cavalry 50, light cavalry 30, native
    /// spearmen 150, native riflemen 50, Maxim guns 60, cannons 60.
    /// Light, grenadier and guard companies are infantry companies (100).
    /// Transport and command stands are not on the Combat Table: 20 and 10
    /// are this program's own values, and those stands have no combat power.
    pub fn roster_points(self) -> u32 {
        match self {
            StandKind::LineInfantry
            | StandKind::LightInfantry
            | StandKind::GrenadierInfantry
            | StandKind::GuardInfantry
            | StandKind::NativeRegulars => 100,
            StandKind::HeavyCavalry | StandKind::MountedInfantry | StandKind::NativeRiflemen => 50,
            StandKind::LightCavalry => 30,
            StandKind::NativeSpearmen => 150,
            StandKind::FootArtillery | StandKind::HorseArtillery | StandKind::MachineGun => 60,
            StandKind::Transport => 20,
            StandKind::Command => 10,
        }
    }

    /// The arm of service this kind belongs to.
    pub fn arm(self) -> Arm {
        match self {
            StandKind::LineInfantry
            | StandKind::LightInfantry
            | StandKind::GrenadierInfantry
            | StandKind::GuardInfantry
            | StandKind::MountedInfantry
            | StandKind::NativeSpearmen
            | StandKind::NativeRiflemen
            | StandKind::NativeRegulars => Arm::Infantry,
            StandKind::HeavyCavalry | StandKind::LightCavalry => Arm::Cavalry,
            StandKind::FootArtillery | StandKind::HorseArtillery | StandKind::MachineGun => Arm::Artillery,
            StandKind::Transport | StandKind::Command => Arm::Support,
        }
    }

    /// Words for people: "line infantry".
    pub fn label(self) -> &'static str {
        match self {
            StandKind::LineInfantry => "line infantry",
            StandKind::LightInfantry => "light infantry",
            StandKind::GrenadierInfantry => "grenadiers",
            StandKind::GuardInfantry => "guards",
            StandKind::HeavyCavalry => "heavy cavalry",
            StandKind::LightCavalry => "light cavalry",
            StandKind::MountedInfantry => "mounted infantry",
            StandKind::FootArtillery => "foot artillery",
            StandKind::HorseArtillery => "horse artillery",
            StandKind::MachineGun => "Maxim gun",
            StandKind::NativeSpearmen => "native spearmen",
            StandKind::NativeRiflemen => "native riflemen",
            StandKind::NativeRegulars => "native regulars",
            StandKind::Transport => "transport",
            StandKind::Command => "command",
        }
    }
}

/// One stand: a tray of model soldiers with its roster strength.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stand {
    pub id: StandId,
    pub name: String,
    pub kind: StandKind,
    pub quality: Quality,
    /// Current strength in roster points; `0 <= strength <= full`.
    pub strength: u32,
    /// Full strength in roster points; more than zero.
    pub full: u32,
}
