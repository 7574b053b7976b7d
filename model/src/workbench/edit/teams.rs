//! The page's edits of teams: a job class's team (its platforms' policies follow a renamed
//! team), and a platform's policy for a team (made when first set).

use crate::model::scenario::{Scenario, TeamPolicy};

/// Longest team name, characters.
pub const TEAM_NAME_MAX: usize = 64;

/// Puts job class `index` in team `team` (trimmed; "" the default team). Where no other class
/// is left in its old team, the platforms' policies for the old team become the new team's
/// (unless the new team has one already: then they are dropped). False for a name too long
/// or a class that does not exist.
pub fn set_class_team(scenario: &mut Scenario, index: usize, team: &str) -> bool {
    let team = team.trim();
    if team.chars().count() > TEAM_NAME_MAX {
        return false;
    }
    let Some(class) = scenario.job_classes.get(index) else {
        return false;
    };
    let old = class.team.clone();
    if old == team {
        return true;
    }
    scenario.job_classes[index].team = team.to_string();
    let old_left = scenario.job_classes.iter().any(|c| c.team == old);
    if !old_left {
        for p in &mut scenario.platforms {
            let has_new = p.teams.iter().any(|t| t.team == team);
            if has_new {
                p.teams.retain(|t| t.team != old);
            } else if let Some(t) = p.teams.iter_mut().find(|t| t.team == old) {
                t.team = team.to_string();
            }
        }
    }
    true
}

/// Edits platform `platform`'s policy for `team` with `f`, making it first (no quota,
/// priority 0) where it has none; a policy left with no quota, no borrowing limit and
/// priority 0 is removed. False for a platform that does not exist.
pub fn edit_team_policy(
    scenario: &mut Scenario,
    platform: usize,
    team: &str,
    f: impl FnOnce(&mut TeamPolicy),
) -> bool {
    let Some(p) = scenario.platforms.get_mut(platform) else {
        return false;
    };
    let at = match p.teams.iter().position(|t| t.team == team) {
        Some(at) => at,
        None => {
            p.teams.push(TeamPolicy {
                team: team.to_string(),
                ..TeamPolicy::default()
            });
            p.teams.len() - 1
        }
    };
    f(&mut p.teams[at]);
    if p.teams[at]
        == (TeamPolicy {
            team: team.to_string(),
            ..TeamPolicy::default()
        })
    {
        p.teams.remove(at);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_renamed_team_keeps_its_policies_and_a_bare_policy_goes() {
        let mut s = Scenario::default();
        assert!(set_class_team(&mut s, 0, " research "));
        assert_eq!(s.job_classes[0].team, "research");
        assert!(edit_team_policy(&mut s, 0, "research", |t| t.priority = 3));
        assert_eq!(s.platforms[0].teams[0].priority, 3);
        assert!(set_class_team(&mut s, 0, "ml"));
        assert_eq!(s.platforms[0].teams[0].team, "ml");
        assert!(edit_team_policy(&mut s, 0, "ml", |t| t.priority = 0));
        assert!(s.platforms[0].teams.is_empty());
        assert!(!set_class_team(&mut s, 0, &"x".repeat(65)));
    }
}
