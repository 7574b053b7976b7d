//! Sharing a GPU among replicas that each ask for a fraction of one: MIG slices or
//! time-slicing, on Kubernetes profiles (the NVIDIA GPU operator and device plugin; GKE sets
//! both per node pool). Absent from every platform made before them: a platform without
//! `gpu_sharing` gives every replica whole GPUs, as before.
//!
//! GPU counts below one are held as whole milli-GPUs ([`milli_gpus`]), as the openb trace
//! writes them, so that packing stays exact.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How a platform shares its GPUs among replicas that ask for a fraction of one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(tag = "mode", rename_all = "snake_case", deny_unknown_fields)]
pub enum GpuSharing {
    /// Whole GPUs only: a replica asking for a fraction holds a whole GPU.
    #[default]
    None,
    /// A static MIG layout on every GPU, as the GPU operator's mig-manager applies it:
    /// profile name (e.g. `1g.5gb`) → slices of it per GPU. A replica asking for a fraction
    /// takes the smallest slice of the layout that fits its memory and compute, or waits.
    Mig {
        /// Slices per GPU by MIG profile name.
        layout: BTreeMap<String, u32>,
    },
    /// Time-slicing: replicas on one GPU share its throughput among those busy at the moment,
    /// with no memory isolation.
    TimeSlicing {
        /// Share of the GPU's time lost to switching between replicas (0–0.5).
        context_switch_loss: f64,
    },
}

impl GpuSharing {
    /// Whether GPUs are whole only (what a platform without `gpu_sharing` does).
    pub fn is_none(&self) -> bool {
        matches!(self, GpuSharing::None)
    }

    /// Its JSON `mode`.
    pub fn mode(&self) -> &'static str {
        match self {
            GpuSharing::None => "none",
            GpuSharing::Mig { .. } => "mig",
            GpuSharing::TimeSlicing { .. } => "time_slicing",
        }
    }
}

/// Context-switch loss of time-slicing where the user sets none: an assumption, stated in
/// the page (NVIDIA documents no figure; the device plugin's time-slicing gives each process
/// a turn in round robin).
pub const CONTEXT_SWITCH_LOSS: f64 = 0.05;

/// Milli-GPUs in a GPU.
pub const MILLI: u32 = 1_000;

/// `gpus` (a count, or a fraction below one) as whole milli-GPUs.
pub fn milli_gpus(gpus: f64) -> u32 {
    (gpus * f64::from(MILLI))
        .round()
        .clamp(0.0, f64::from(u32::MAX)) as u32
}

/// Whole GPUs `gpus` holds where GPUs are not shared: its GPUs, or one for a fraction.
pub fn whole_gpus(gpus: f64) -> u32 {
    milli_gpus(gpus).div_ceil(MILLI).max(1)
}

/// One MIG profile of a GPU (NVIDIA Multi-Instance GPU User Guide, "Supported MIG Profiles").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MigProfile {
    /// Its name, e.g. `1g.5gb`.
    pub name: &'static str,
    /// Compute slices, of [`COMPUTE_SLICES`].
    pub compute: u32,
    /// Memory slices, of [`MEMORY_SLICES`].
    pub memory: u32,
    /// Its memory, GB.
    pub memory_gb: f64,
    /// Most instances of it on one GPU.
    pub most: u32,
}

/// Compute slices of a MIG-capable GPU of the A100/H100/H200 family.
pub const COMPUTE_SLICES: u32 = 7;
/// Memory slices of a MIG-capable GPU of the A100/H100/H200 family.
pub const MEMORY_SLICES: u32 = 8;

/// Where the MIG profiles come from.
pub const MIG_SOURCE: &str =
    "NVIDIA Multi-Instance GPU User Guide, 'Supported MIG Profiles' (docs.nvidia.com, read 2026-12-03)";

macro_rules! profiles {
    ($($name:literal, $c:literal, $m:literal, $gb:literal, $most:literal);* $(;)?) => {
        &[$(MigProfile { name: $name, compute: $c, memory: $m, memory_gb: $gb, most: $most }),*]
    };
}

const A100_40: &[MigProfile] = profiles![
    "1g.5gb", 1, 1, 5.0, 7; "1g.10gb", 1, 2, 10.0, 4; "2g.10gb", 2, 2, 10.0, 3;
    "3g.20gb", 3, 4, 20.0, 2; "4g.20gb", 4, 4, 20.0, 1; "7g.40gb", 7, 8, 40.0, 1;
];
const GB80: &[MigProfile] = profiles![
    "1g.10gb", 1, 1, 10.0, 7; "1g.20gb", 1, 2, 20.0, 4; "2g.20gb", 2, 2, 20.0, 3;
    "3g.40gb", 3, 4, 40.0, 2; "4g.40gb", 4, 4, 40.0, 1; "7g.80gb", 7, 8, 80.0, 1;
];
const H200: &[MigProfile] = profiles![
    "1g.18gb", 1, 1, 18.0, 7; "1g.35gb", 1, 2, 35.0, 4; "2g.35gb", 2, 2, 35.0, 3;
    "3g.71gb", 3, 4, 71.0, 2; "4g.71gb", 4, 4, 71.0, 1; "7g.141gb", 7, 8, 141.0, 1;
];

/// The MIG profiles of `gpu_model` (a catalog GPU model), or none when it has no MIG (T4,
/// V100, A10G, L4, L40S).
pub fn mig_profiles(gpu_model: &str) -> Option<&'static [MigProfile]> {
    match gpu_model {
        "A100" => Some(A100_40),
        "A100-80GB" | "H100" | "H100-MEGA" => Some(GB80),
        "H200" => Some(H200),
        _ => None,
    }
}

/// Why `layout` is no MIG layout of a `gpu_model` GPU, if it is not: a GPU without MIG, an
/// unknown profile, more instances of one than the GPU allows, or more than its 7 compute
/// and 8 memory slices. (NVIDIA's placement rules may still refuse a layout that fits.)
pub fn mig_layout_error(gpu_model: &str, layout: &BTreeMap<String, u32>) -> Option<String> {
    let Some(profiles) = mig_profiles(gpu_model) else {
        return Some(format!(
            "{gpu_model} GPUs have no MIG (MIG is on A100, H100 and H200 GPUs, not on T4, V100, A10G, L4 or L40S)"
        ));
    };
    let names = || {
        profiles
            .iter()
            .map(|p| p.name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    if layout.values().all(|&n| n == 0) {
        return Some(format!(
            "the MIG layout has no slice; a {gpu_model}'s profiles are {}",
            names()
        ));
    }
    let (mut compute, mut memory) = (0, 0);
    for (name, &n) in layout {
        let Some(p) = profiles.iter().find(|p| p.name == name) else {
            return Some(format!(
                "{name} is no MIG profile of a {gpu_model}; its profiles are {}",
                names()
            ));
        };
        if n > p.most {
            return Some(format!(
                "a {gpu_model} holds at most {} × {name}, not {n}",
                p.most
            ));
        }
        compute += n * p.compute;
        memory += n * p.memory;
    }
    (compute > COMPUTE_SLICES || memory > MEMORY_SLICES).then(|| {
        format!(
            "the MIG layout {} needs {compute} compute and {memory} memory slices; a {gpu_model} has {COMPUTE_SLICES} and {MEMORY_SLICES}",
            layout_text(layout)
        )
    })
}

/// A layout in words, e.g. `7 × 1g.5gb` or `1 × 3g.20gb + 2 × 2g.10gb`.
pub fn layout_text(layout: &BTreeMap<String, u32>) -> String {
    layout
        .iter()
        .filter(|(_, &n)| n > 0)
        .map(|(name, n)| format!("{n} × {name}"))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The slice of `layout` on a `gpu_model` GPU a replica asking for `milli` milli-GPUs and
/// `memory_gb` takes: the smallest (fewest compute, then memory slices) with at least that
/// compute share and memory.
pub fn mig_slice_for(
    gpu_model: &str,
    layout: &BTreeMap<String, u32>,
    milli: u32,
    memory_gb: f64,
) -> Option<MigProfile> {
    let profiles = mig_profiles(gpu_model)?;
    profiles
        .iter()
        .filter(|p| layout.get(p.name).is_some_and(|&n| n > 0))
        .filter(|p| slice_milli(p) >= milli)
        .filter(|p| p.memory_gb >= memory_gb)
        .min_by_key(|p| (p.compute, p.memory))
        .copied()
}

/// A slice's compute share in milli-GPUs, rounded to the nearest (a 1g slice is 143: a
/// replica asking for 1/7 of a GPU, 0.143, fits it).
pub fn slice_milli(p: &MigProfile) -> u32 {
    (f64::from(p.compute * MILLI) / f64::from(COMPUTE_SLICES)).round() as u32
}

/// The standard layouts offered in the page, (key, label), and a custom one.
pub const LAYOUT_CHOICES: &[(&str, &str)] = &[
    ("7x1g", "7 small slices (7 × 1g)"),
    ("3x2g_1x1g", "3 × 2g + 1 × 1g"),
    ("3g_2g_1g_1g", "3g + 2g + 2 × 1g"),
    ("2x3g", "2 × 3g"),
    ("4g_3g", "4g + 3g"),
    ("1x7g", "1 × 7g (the whole GPU as one slice)"),
    ("custom", "Custom (as the scenario file writes it)"),
];

/// The compute slices of each instance of standard layout `key`.
fn shape(key: &str) -> Option<&'static [u32]> {
    Some(match key {
        "7x1g" => &[1, 1, 1, 1, 1, 1, 1],
        "3x2g_1x1g" => &[2, 2, 2, 1],
        "3g_2g_1g_1g" => &[3, 2, 1, 1],
        "2x3g" => &[3, 3],
        "4g_3g" => &[4, 3],
        "1x7g" => &[7],
        _ => return None,
    })
}

/// Standard layout `key` on a `gpu_model` GPU, by its profile names (none for a GPU without
/// MIG or an unknown key).
pub fn standard_layout(gpu_model: &str, key: &str) -> Option<BTreeMap<String, u32>> {
    let profiles = mig_profiles(gpu_model)?;
    let mut layout = BTreeMap::new();
    // Each instance the profile of that many compute slices with the fewest memory slices.
    for &compute in shape(key)? {
        let p = profiles.iter().find(|p| p.compute == compute)?;
        *layout.entry(p.name.to_string()).or_insert(0) += 1;
    }
    Some(layout)
}

/// The key of the standard layout `layout` is on a `gpu_model` GPU, if it is one.
pub fn standard_layout_key(
    gpu_model: &str,
    layout: &BTreeMap<String, u32>,
) -> Option<&'static str> {
    LAYOUT_CHOICES
        .iter()
        .map(|l| l.0)
        .find(|key| standard_layout(gpu_model, key).as_ref() == Some(layout))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(pairs: &[(&str, u32)]) -> BTreeMap<String, u32> {
        pairs.iter().map(|&(n, c)| (n.to_string(), c)).collect()
    }

    #[test]
    fn layouts_fit_the_gpus_slices_or_are_refused_with_the_reason() {
        assert_eq!(mig_layout_error("A100", &layout(&[("1g.5gb", 7)])), None);
        assert_eq!(
            mig_layout_error(
                "A100",
                &layout(&[("3g.20gb", 1), ("2g.10gb", 1), ("1g.5gb", 2)])
            ),
            None
        );
        assert_eq!(
            mig_layout_error("H100", &layout(&[("4g.40gb", 1), ("3g.40gb", 1)])),
            None
        );
        let e = mig_layout_error("A100", &layout(&[("1g.5gb", 8)])).unwrap();
        assert!(e.contains("at most 7 × 1g.5gb"), "{e}");
        let e = mig_layout_error(
            "A100",
            &layout(&[("4g.20gb", 1), ("3g.20gb", 1), ("1g.5gb", 1)]),
        )
        .unwrap();
        assert!(e.contains("8 compute and 9 memory slices"), "{e}");
        let e = mig_layout_error("A100", &layout(&[("1g.10gb", 7)])).unwrap();
        assert!(e.contains("at most 4"), "{e}");
        let e = mig_layout_error("H100", &layout(&[("1g.5gb", 7)])).unwrap();
        assert!(e.contains("1g.5gb is no MIG profile of a H100"), "{e}");
    }

    #[test]
    fn gpus_without_mig_are_named() {
        for gpu in ["L4", "A10G", "T4", "L40S"] {
            let e = mig_layout_error(gpu, &layout(&[("1g.5gb", 7)])).unwrap();
            assert!(e.starts_with(&format!("{gpu} GPUs have no MIG")), "{e}");
        }
    }

    #[test]
    fn a_replica_takes_the_smallest_slice_that_fits_it() {
        let mixed = layout(&[("3g.20gb", 1), ("2g.10gb", 1), ("1g.5gb", 2)]);
        let slice = |milli, gb| mig_slice_for("A100", &mixed, milli, gb).map(|p| p.name);
        assert_eq!(slice(100, 4.0), Some("1g.5gb"));
        // 1/7 of a GPU is 142.86 milli, 143 once rounded: 144 needs two compute slices.
        assert_eq!(slice(143, 4.0), Some("1g.5gb"));
        assert_eq!(slice(144, 4.0), Some("2g.10gb"));
        assert_eq!(slice(100, 6.0), Some("2g.10gb"));
        assert_eq!(slice(300, 12.0), Some("3g.20gb"));
        assert_eq!(slice(500, 4.0), None);
        assert_eq!(slice(100, 25.0), None);
    }

    #[test]
    fn standard_layouts_are_valid_on_every_mig_gpu_and_read_back() {
        for gpu in ["A100", "A100-80GB", "H100", "H100-MEGA", "H200"] {
            for (key, _) in LAYOUT_CHOICES.iter().filter(|c| c.0 != "custom") {
                let l = standard_layout(gpu, key).unwrap();
                assert_eq!(mig_layout_error(gpu, &l), None, "{gpu} {key}");
                assert_eq!(standard_layout_key(gpu, &l), Some(*key));
            }
        }
        assert_eq!(
            standard_layout("A100", "7x1g"),
            Some(layout(&[("1g.5gb", 7)]))
        );
        assert_eq!(standard_layout("L4", "7x1g"), None);
    }

    #[test]
    fn milli_gpus_round_to_the_nearest() {
        assert_eq!(milli_gpus(0.05), 50);
        assert_eq!(milli_gpus(1.0 / 7.0), 143);
        assert_eq!(milli_gpus(2.0), 2_000);
    }
}
