//! What the model changes of a scenario's services, in words, for the page's service
//! fieldsets and `gpucost eval`'s stderr. Services the same notice applies to are named in one
//! notice (twenty small models make one line, not twenty).

use super::platform::{most_replicas, node_share, serving_of, shares_nodes};
use super::sharing::{slot_of, Slot};
use crate::model::scenario::class_notices::platform_names;
use crate::model::scenario::Scenario;

/// Services named together: one by its name, a few listed, many as the first three and a
/// count; and whether they are several.
fn subject(names: &[&str]) -> (String, bool) {
    let text = match names {
        [one] => one.to_string(),
        [first @ .., last] if names.len() <= 4 => format!("{} and {last}", first.join(", ")),
        _ => format!("{} and {} more", names[..3].join(", "), names.len() - 3),
    };
    (text, names.len() > 1)
}

/// Notices of the form "<services> <verb> <rest>", the services with the same rest together,
/// in the order their rests first appear.
fn grouped(items: Vec<(&str, String)>, verb: (&str, &str)) -> Vec<String> {
    let mut rests: Vec<(String, Vec<&str>)> = Vec::new();
    for (name, rest) in items {
        match rests.iter_mut().find(|r| r.0 == rest) {
            Some(r) => r.1.push(name),
            None => rests.push((rest, vec![name])),
        }
    }
    rests
        .into_iter()
        .map(|(rest, names)| {
            let (who, several) = subject(&names);
            format!("{who} {} {rest}", if several { verb.1 } else { verb.0 })
        })
        .collect()
}

/// What the model changes of a scenario's services, in words: a service runs no more
/// replicas than a platform's node limit holds, a replica asking for a fraction of a GPU
/// holds a whole one on a platform that does not share GPUs, and one that may scale to zero
/// (fewest replicas 0) keeps one replica on a platform that cannot scale to zero.
pub fn serving_notices(scenario: &Scenario) -> Vec<String> {
    notices_of(scenario, None)
}

/// The notices of service `index` alone (for its fieldset).
pub fn service_notices(scenario: &Scenario, index: usize) -> Vec<String> {
    notices_of(scenario, Some(index))
}

/// The notices of every service, or of service `only`.
fn notices_of(scenario: &Scenario, only: Option<usize>) -> Vec<String> {
    let mut capped = Vec::new();
    let mut whole = Vec::new();
    let mut kept = Vec::new();
    let chosen = scenario
        .services
        .iter()
        .enumerate()
        .filter(|(i, _)| only.is_none_or(|o| o == *i));
    for (_, service) in chosen {
        let name = service.name.as_str();
        for p in scenario.platforms.iter().filter(|p| p.runs_nodes()) {
            let p = &*p.services_view(scenario);
            let most = most_replicas(&service.on(p), p);
            if service.max_replicas > most || service.min_replicas > most {
                capped.push((
                    name,
                    format!(
                        "at most {most} replicas on {}: its node limit is {} nodes of {} GPUs (max_nodes)",
                        p.name, p.first_pool().max_nodes, p.first_pool().gpus_per_node
                    ),
                ));
            }
        }
        let on = |keep: &dyn Fn(&crate::model::scenario::Platform) -> bool| {
            platform_names(scenario, keep)
        };
        if service.is_fractional() {
            let platforms = on(&|p| {
                matches!(
                    slot_of(service, &p.services_view(scenario)),
                    Slot::Whole { .. }
                )
            });
            if !platforms.is_empty() {
                whole.push((
                    name,
                    format!(
                        "a whole GPU per replica on {platforms}: the platform does not share GPUs (gpu_sharing none), so {} GPU rounds up",
                        service.gpus_per_replica
                    ),
                ));
            }
        }
        if service.min_replicas == 0 {
            let platforms = on(&|p| !serving_of(p).scale_to_zero);
            if !platforms.is_empty() {
                kept.push((
                    name,
                    format!(
                        "1 replica on {platforms}: the platform cannot scale to zero (its serving.scale_to_zero is off)"
                    ),
                ));
            }
        }
    }
    let mut notices = grouped(capped, ("runs", "run"));
    notices.extend(grouped(whole, ("holds", "hold")));
    notices.extend(grouped(kept, ("keeps", "keep")));
    if only.is_none() {
        notices.extend(
            scenario
                .platforms
                .iter()
                .filter(|p| p.runs_nodes())
                .filter_map(|p| over_node_limit(scenario, &p.services_view(scenario))),
        );
    }
    notices
}

/// Where replicas pack a platform's nodes, the services together at their most replicas may
/// need more nodes than its limit: the model bills them rather than hold them to it.
fn over_node_limit(
    scenario: &Scenario,
    platform: &crate::model::scenario::Platform,
) -> Option<String> {
    if scenario.services.len() < 2 || !shares_nodes(platform) {
        return None;
    }
    let gpn = platform.first_pool().gpus_per_node.max(1);
    let gpus: f64 = scenario
        .services
        .iter()
        .map(|s| {
            let per_replica = match slot_of(s, platform) {
                Slot::Whole { gpus } => f64::from(node_share(gpus, gpn)),
                slot => slot.gpus(),
            };
            f64::from(s.max_replicas.min(most_replicas(s, platform))) * per_replica
        })
        .sum();
    let nodes = (gpus / f64::from(gpn) - 1e-9).ceil();
    (nodes > f64::from(platform.first_pool().max_nodes)).then(|| {
        format!(
            "the services together may need up to {nodes} nodes of {} at their most replicas, more than its {} (max_nodes): each is held to the limit alone, not all together, and the nodes beyond it are billed",
            platform.name, platform.first_pool().max_nodes
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn services_with_the_same_notice_share_it() {
        assert_eq!(subject(&["a"]), ("a".to_string(), false));
        assert_eq!(subject(&["a", "b", "c"]), ("a, b and c".to_string(), true));
        let many: Vec<String> = (1..=20).map(|i| format!("m{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert_eq!(subject(&many).0, "m1, m2, m3 and 17 more");
        let notices = grouped(
            vec![("a", "x".into()), ("b", "y".into()), ("c", "x".into())],
            ("keeps", "keep"),
        );
        assert_eq!(notices, ["a and c keep x", "b keeps y"]);
    }
}
