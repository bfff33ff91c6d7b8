//! harman-2021 close combat: bayonet charges, undecided fights, cavalry charges against cavalry, foot and squares.

use super::*;

impl Battle<'_> {
    pub(super) fn cc_dice(&self, a: usize, d: usize) -> u32 {
        let dice = self.pieces.get(a).map_or(0, Piece::dice);
        close_combat_dice(
            dice,
            self.general_with(a),
            &self.cell_held(self.at(d), self.side(d)),
        )
    }

    pub(super) fn mark_fought(&mut self, a: usize, d: usize) {
        for k in [a, d] {
            if let Some(p) = self.pieces.get_mut(k) {
                p.fought = true;
                p.attacked = true;
            }
        }
    }

    /// Bayonet Charges by Formed Troops.
    pub(super) fn bayonet(&mut self, a: usize, d: usize, round: u32, from: Square) {
        self.mark_fought(a, d);
        let t = self.throw(self.cc_dice(a, d));
        let extra = self.pieces.get(d).map_or(0, |p| p.skirmish_flags);
        let dq = self.pieces.get(d).map_or(0, |p| p.quality);
        let answer = bayonet_answer(t.flags + extra, t.sabres, dq);
        self.say(|me| {
            format!(
                "{} charges {} with the bayonet (round {round}): {} Sabre, {} Flag{}: {answer}.",
                me.name(a),
                me.name(d),
                t.sabres,
                t.flags,
                if extra > 0 {
                    " and the skirmishers' Flags"
                } else {
                    ""
                }
            )
        });
        self.officers(d, &t, t.sabres);
        self.hit(d, t.sabres);
        if answer == BayonetAnswer::Flee {
            let dsq = self.at(d);
            if self.pieces.get(d).is_some_and(Piece::combatant) {
                self.leave(d, "panics and flees");
            }
            if self.free(dsq) {
                self.move_to(a, dsq);
            }
            return;
        }
        if !self.pieces.get(d).is_some_and(Piece::combatant) {
            return;
        }
        let du = self.unit(d);
        let base = if du.is_artillery() {
            3
        } else if du == (Unit::FormedInfantry { fires: false }) {
            0
        } else {
            self.pieces.get(d).map_or(0, Piece::dice)
        };
        let reply = self.throw(bayonet_return_dice(answer, base));
        let aq = self.pieces.get(a).map_or(0, |p| p.quality);
        let effect = flag_effect(reply.flags, aq, self.general_with(a));
        self.say(|me| {
            format!(
                "{} fires back ({} dice): {} hit{}, {} Flag{}.",
                me.name(d),
                reply.dice,
                reply.targets,
                plural(reply.targets),
                reply.flags,
                plural(reply.flags)
            )
        });
        self.officers(a, &reply, reply.targets);
        self.hit(a, reply.targets);
        self.flags(a, effect);
        let stopped = halted(effect) || !self.pieces.get(a).is_some_and(|p| p.combatant() && p.cv > 0);
        if stopped {
            return;
        }
        if answer == BayonetAnswer::FireThenRetire {
            let dsq = self.at(d);
            self.retire(d);
            if self.free(dsq) && self.pieces.get(a).is_some_and(Piece::combatant) {
                self.move_to(a, dsq);
            }
            return;
        }
        self.undecided(a, d, round, from);
    }

    /// Close Combat between foot and horse outside the seed's charges
    /// (Bayonet Charges are against "an enemy infantry or artillery unit";
    /// CAVALRY Vs ... are the horse's own charges): foot with no fire that
    /// closes with horse, or stands next to it, fights by the seed's general
    /// rule, CLOSE COMBAT: "Throw a number of Tactical Dice for each unit
    /// engaged in Close Combat, equal to its troop quality. Add an extra
    /// Tactical Die if the unit is accompanied by a General. For each face
    /// of the Tactical Dice, a Sabre, that causes a unit to suffer a hit,
    /// deduct 1 from its CV"; each side's Flags fall on the other ("Four is
    /// a Falling Flag", The Tactical Dice).
    pub(super) fn close_combat(&mut self, a: usize, d: usize) {
        self.mark_fought(a, d);
        let ta = self.throw(self.cc_dice(a, d));
        let td = self.throw(self.cc_dice(d, a));
        self.say(|me| {
            format!(
                "{} closes with {}: {} Sabre{}, {} Flag{} against {} Sabre{}, {} Flag{}.",
                me.name(a),
                me.name(d),
                ta.sabres,
                plural(ta.sabres),
                ta.flags,
                plural(ta.flags),
                td.sabres,
                plural(td.sabres),
                td.flags,
                plural(td.flags)
            )
        });
        self.officers(d, &ta, ta.sabres);
        self.officers(a, &td, td.sabres);
        self.suffer(d, ta.sabres, ta.flags);
        self.suffer(a, td.sabres, td.flags);
    }

    /// No decision: the combat goes on next turn, or after the second turn
    /// both retire (only the attackers from a BUA).
    pub(super) fn undecided(&mut self, a: usize, d: usize, round: u32, from: Square) {
        let in_bua = is_bua(&self.cell(self.at(d)));
        match undecided_retire(round, in_bua) {
            None => self.engaged.push(Engagement {
                attacker: a,
                defender: d,
                round: round + 1,
                from,
            }),
            Some((attackers, defenders)) => {
                self.say(|me| {
                    format!(
                        "No decision after two turns between {} and {}: they retire to rally.",
                        me.name(a),
                        me.name(d)
                    )
                });
                if attackers {
                    self.back_to(a, from);
                }
                if defenders && self.pieces.get(d).is_some_and(Piece::combatant) {
                    self.retire(d);
                }
            }
        }
    }

    pub(super) fn back_to(&mut self, i: usize, from: Square) {
        if !self.pieces.get(i).is_some_and(Piece::combatant) {
            return;
        }
        if self.free(from) || self.at(i) == from {
            self.move_to(i, from);
        } else {
            self.retire(i);
        }
    }

    pub(super) fn continue_close_combat(&mut self, side: usize) {
        let all = std::mem::take(&mut self.engaged);
        let (mine, rest): (Vec<Engagement>, Vec<Engagement>) =
            all.into_iter().partition(|e| self.side_of(e.attacker) == side);
        self.engaged = rest;
        for e in mine {
            let both = [e.attacker, e.defender].iter().all(|&k| {
                self.pieces
                    .get(k)
                    .is_some_and(|p| p.combatant() && !p.retiring && p.cv > 0)
            });
            let attacker_halted = self.pieces.get(e.attacker).is_some_and(|p| p.halted);
            let adjacent = manhattan(self.at(e.attacker), self.at(e.defender)) == 1;
            // A halted attacker fights no more: "there will be an exchange of Fire".
            if !both || !adjacent || attacker_halted {
                continue;
            }
            if self.unit(e.attacker).is_cavalry() {
                self.cavalry_charge(e.attacker, e.defender, e.round, e.from);
            } else {
                self.bayonet(e.attacker, e.defender, e.round, e.from);
            }
        }
    }

    pub(super) fn side_of(&self, i: usize) -> usize {
        self.side(i)
    }

    pub(super) fn throw(&mut self, n: u32) -> Throw {
        Throw::roll(&mut self.dice, n)
    }

    /// Cavalry vs Cavalry.
    pub(super) fn cavalry_charge(&mut self, a: usize, d: usize, round: u32, from: Square) {
        self.mark_fought(a, d);
        let t = self.throw(self.cc_dice(a, d));
        let dq = self.pieces.get(d).map_or(0, |p| p.quality);
        let flags = if self.general_with(d) {
            t.flags.saturating_sub(1)
        } else {
            t.flags
        };
        let reply = cavalry_reply(flags, dq);
        self.say(|me| {
            format!(
                "{} charges {} (round {round}): {} Sabre, {} Flag: {reply}.",
                me.name(a),
                me.name(d),
                t.sabres,
                t.flags
            )
        });
        self.officers(d, &t, t.sabres);
        self.hit(d, t.sabres);
        if reply == CavalryReply::Breaks {
            // The pursuit: "suffering further hits and Flags ... without being able to reply".
            let p = self.throw(self.cc_dice(a, d));
            self.hit(d, p.sabres);
            if self.pieces.get(d).is_some_and(Piece::combatant) {
                if flags + p.flags > dq {
                    self.leave(d, "routs before the charge");
                } else {
                    self.flags(d, FlagEffect::Retires);
                    self.retire(d);
                }
            }
            return;
        }
        if !self.pieces.get(d).is_some_and(Piece::combatant) {
            return;
        }
        let dice = cavalry_reply_dice(reply, self.pieces.get(d).map_or(0, Piece::dice));
        let r = self.throw(dice + u32::from(self.general_with(d)));
        self.officers(a, &r, r.sabres);
        self.hit(a, r.sabres);
        let aq = self.pieces.get(a).map_or(0, |p| p.quality);
        let effect = flag_effect(r.flags, aq, self.general_with(a));
        if effect >= FlagEffect::Retires {
            self.flags(a, effect);
        }
        let alive = [a, d].iter().all(|&k| {
            self.pieces
                .get(k)
                .is_some_and(|p| p.combatant() && !p.retiring && p.cv > 0)
        });
        if !alive {
            return;
        }
        if round >= crate::rules::harman2021::tables::CLOSE_COMBAT_TURNS {
            // Blown: back to the original position to rally.
            self.say(|me| {
                format!(
                    "{} and {} are blown and fall back to rally.",
                    me.name(a),
                    me.name(d)
                )
            });
            self.back_to(a, from);
            for k in [a, d] {
                if let Some(p) = self.pieces.get_mut(k) {
                    p.blown = 1;
                }
            }
        } else {
            // They pass through each other and turn to charge again next turn.
            self.engaged.push(Engagement {
                attacker: a,
                defender: d,
                round: round + 1,
                from,
            });
        }
    }

    /// Cavalry vs Infantry/Artillery.
    pub(super) fn cavalry_against_foot(&mut self, a: usize, d: usize, from: Square) {
        self.mark_fought(a, d);
        let t = self.throw(self.cc_dice(a, d));
        let Some(def) = self.pieces.get(d) else { return };
        let (dq, artillery, in_square) = (def.quality, def.unit.is_artillery(), def.in_square);
        let result = cavalry_against_foot(t.flags, t.sabres, dq, in_square);
        self.say(|me| {
            format!(
                "{} charges {}: {} Sabre, {} Flag: {result}.",
                me.name(a),
                me.name(d),
                t.sabres,
                t.flags
            )
        });
        let dice_now = if artillery {
            3
        } else {
            self.pieces.get(d).map_or(0, Piece::dice)
        };
        let (reply_dice, suffers) = square_reply(result, artillery, dice_now);
        if suffers {
            self.officers(d, &t, t.sabres);
            self.hit(d, t.sabres);
        }
        if result == SquareResult::Broken {
            let p = self.throw(pursuit_dice(self.cc_dice(a, d)));
            self.hit(d, p.sabres);
            if self.pieces.get(d).is_some_and(Piece::combatant) {
                self.leave(d, "breaks before the cavalry and routs");
            }
            return;
        }
        if !artillery && let Some(p) = self.pieces.get_mut(d) {
            p.in_square = true;
        }
        let fires = !(self.unit(d) == (Unit::FormedInfantry { fires: false }));
        let r = self.throw(if fires { reply_dice } else { 0 });
        self.officers(a, &r, r.targets);
        self.hit(a, r.targets);
        let aq = self.pieces.get(a).map_or(0, |p| p.quality);
        let effect = flag_effect(r.flags, aq, self.general_with(a));
        self.flags(a, effect);
        if artillery && result == SquareResult::JustFormed && self.pieces.get(d).is_some_and(Piece::combatant)
        {
            self.retire(d);
        }
        // The unsuccessful charge flows past and returns to rally.
        self.back_to(a, from);
    }

    // ------------------------------------------------------------------------
    // The end.
}
