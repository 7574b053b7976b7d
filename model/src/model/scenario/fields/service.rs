//! Fields of a service (paths relative to `services.<i>`).

use super::*;

fn spikes_mut(s: &mut Service) -> &mut ServiceSpikes {
    s.traffic.spikes.get_or_insert(ServiceSpikes {
        per_month: 0.0,
        factor: 1.0,
        duration_min: 60.0,
    })
}

/// Fields of a service.
pub static SERVICE_FIELDS: &[Field<Service>] = &[
    Field::<Service>::other("name", "Name", Value::Name { get: |s| &s.name }).doc("Name shown in the page."),
    num!(Service; "traffic.mean_rps", "Mean traffic", "req/s", (0.0, 1e6),
        |s| s.traffic.mean_rps, |s, v| s.traffic.mean_rps = v)
    .slider(0.0, 5_000.0, 0.1)
    .doc("Mean requests per second over a week, spikes aside."),
    Field {
        min: 0.0,
        max: 1e6,
        ..Field::<Service>::other("traffic.hourly_profile", "Traffic by hour of day", Value::Numbers {
            get: |s| s.traffic.hourly_profile.as_deref(),
            series: Series::HourOfDay,
        })
    }
    .doc("24 non-negative weights, one per hour of the day; only their ratios matter. Absent: flat.")
    .control(Control::Elsewhere),
    num!(Service; "traffic.weekend_factor", "Weekend traffic", "× weekday", (0.0, 100.0),
        |s| s.traffic.weekend_factor, |s, v| s.traffic.weekend_factor = v)
    .doc("Traffic on Saturday and Sunday relative to a weekday; the weekly mean stays the mean traffic."),
    Field::<Service>::number("traffic.spikes.per_month", "Spikes a month", "/month", (0.0, 1_000.0),
        |s| s.traffic.spikes.as_ref().map(|x| x.per_month), |s, v| spikes_mut(s).per_month = v)
    .doc("Mean spikes per 730-hour month, placed at random."),
    Field::<Service>::number("traffic.spikes.factor", "Spike factor", "×", (1.0, 1_000.0),
        |s| s.traffic.spikes.as_ref().map(|x| x.factor), |s, v| spikes_mut(s).factor = v)
    .slider(1.0, 50.0, 0.5)
    .doc("Traffic during a spike, as a multiple of the usual."),
    Field::<Service>::number("traffic.spikes.duration_min", "Spike length", "min", (1.0, 10_080.0),
        |s| s.traffic.spikes.as_ref().map(|x| x.duration_min), |s, v| spikes_mut(s).duration_min = v)
    .doc("How long a spike lasts."),
    num!(Service; "capacity_rps", "Capacity per replica", "req/s", (1e-3, 1e6),
        |s| s.capacity_rps, |s, v| s.capacity_rps = v)
    .doc("Requests per second one replica sustains on the reference GPU at its batch setting, as measured."),
    num!(Service; "concurrency", "Concurrency", "requests", (1.0, 4_096.0),
        |s| s.concurrency, |s, v| s.concurrency = v as u32)
    .doc("Requests a replica holds at once; one request alone takes concurrency ÷ capacity seconds."),
    num!(Service; "gpus_per_replica", "GPUs per replica", "", (0.001, 64.0),
        |s| s.gpus_per_replica, |s, v| s.gpus_per_replica = v)
    .doc("GPUs one replica holds: whole, or a fraction (to 0.001) that a platform sharing its GPUs (MIG or time-slicing) packs; elsewhere a fraction holds a whole GPU. The capacity is measured with its whole GPU to itself."),
    num!(Service; "gpu_memory_gb", "GPU memory per replica", "GB", (0.0, 1_000.0),
        |s| s.gpu_memory_gb, |s, v| s.gpu_memory_gb = v)
    .doc("GPU memory one replica needs on each of its GPUs."),
    num!(Service; "latency_slo_ms", "Latency objective (p95)", "ms", (1.0, 3.6e6),
        |s| s.latency_slo_ms, |s, v| s.latency_slo_ms = v)
    .doc("A minute whose p95 latency is above it counts as an SLO-violation minute."),
    num!(Service; "min_replicas", "Fewest replicas", "", (0.0, limits::MAX_NODES as f64),
        |s| s.min_replicas, |s, v| s.min_replicas = v as u32)
    .doc("0 scales to zero on a platform that can (elsewhere one replica stays)."),
    num!(Service; "max_replicas", "Most replicas", "", (1.0, limits::MAX_NODES as f64),
        |s| s.max_replicas, |s, v| s.max_replicas = v as u32)
    .doc("The autoscaler adds no replica beyond it; requests then queue, and past the queue are dropped."),
    num!(Service; "target_utilization", "Autoscaling target", "", (0.05, 1.0),
        |s| s.target_utilization, |s, v| s.target_utilization = v)
    .doc("Share of a replica's capacity the autoscaler aims to use."),
    num!(Service; "model_load_s", "Model load", "s", (0.0, 86_400.0),
        |s| s.model_load_s, |s, v| s.model_load_s = v)
    .doc("A new replica's model load once its GPU is there."),
    num!(Service; "image_gb", "Image size", "GB", (0.0, 1_000.0),
        |s| s.image_gb, |s, v| s.image_gb = v)
    .doc("Container image pulled by a new replica's node."),
    num!(Service; "queue_per_replica", "Queue per replica", "requests", (0.0, 1e6),
        |s| s.queue_per_replica, |s, v| s.queue_per_replica = v as u32)
    .doc("Requests that may wait, per replica at the most replicas; more are dropped."),
];
