//! Jobs asking for a fraction of a GPU on a platform that shares GPUs: placement on the
//! shared GPUs ([`crate::model::sim::shared_gpus`]) and their GPU-sharing loss.
//!
//! A fraction goes to the shared GPU it fits most tightly (ready nodes first, then nodes
//! being provisioned; ties to the GPU opened first); where none has room, a free GPU slot
//! becomes a shared GPU, found as a 1-GPU job's would be (the placement's node, or a new
//! node). Its job then starts as any job on one node: image pull, restarts and checkpoints
//! are charged at its share.

use super::Sim;
use crate::model::cost_category::Category;
use crate::model::sim::shared_gpus::SharedGpu;

impl Sim<'_> {
    /// Places `job`, of a fractional class, on a shared GPU; whether it left the queue.
    pub(super) fn try_place_share(&mut self, job: usize) -> bool {
        let Some(need) = self.plans[self.jobs[job].class].need else {
            return false;
        };
        // A shared GPU with room on a ready node; else a free GPU on a ready node; else a
        // shared GPU on a node being provisioned; else a GPU as a 1-GPU job would find one.
        let room = self.shared_gpu_with_room(|g| g.fits(&need));
        let on_ready = room.filter(|&g| self.nodes[self.shared_gpus[g].node as usize].ready);
        let gpu = match (on_ready, self.index.fullest_fit(true, 1), room) {
            (Some(gpu), _, _) => gpu,
            (None, Some(node), _) => self.open_shared_gpu(node),
            (None, None, Some(gpu)) => gpu,
            (None, None, None) => match self.pick_shared_node(1, self.platform.placement) {
                Some(node) => self.open_shared_gpu(node),
                None => return false,
            },
        };
        self.settle_sharing_loss(gpu);
        self.shared_gpus[gpu].take(&need);
        self.job_gpu[job] = gpu as u32;
        let node = self.shared_gpus[gpu].node as usize;
        self.hold(job, node, 0);
        self.dequeue(job);
        // Its one node is held from now: no capacity wait to charge.
        self.start_if_ready(job, false);
        true
    }

    /// The live shared GPU `fits` accepts with the least of it unused (the tightest), on a
    /// ready node if any, else on one being provisioned.
    fn shared_gpu_with_room(&self, fits: impl Fn(&SharedGpu) -> bool) -> Option<usize> {
        self.shared_gpus
            .iter()
            .enumerate()
            .filter(|(_, g)| g.jobs > 0 && fits(g))
            .min_by_key(|(i, g)| {
                let ready = self.nodes[g.node as usize].ready;
                let unused = ((1.0 - g.held).max(0.0) * 1e6) as u64;
                (!ready, unused, *i)
            })
            .map(|(i, _)| i)
    }

    /// Takes a free GPU slot of `node` as a shared GPU; its index.
    fn open_shared_gpu(&mut self, node: usize) -> usize {
        let free = self.nodes[node].free - 1;
        self.set_free(node, free);
        let gpu = SharedGpu {
            node: node as u32,
            free: self.share_capacity,
            jobs: 0,
            held: 0.0,
            since_s: self.now,
        };
        self.shared_live += 1;
        match self.free_shared.pop() {
            Some(i) => {
                self.shared_gpus[i as usize] = gpu;
                i as usize
            }
            None => {
                self.shared_gpus.push(gpu);
                self.shared_gpus.len() - 1
            }
        }
    }

    /// Gives back the share `job` holds; a shared GPU its last job leaves goes back to its
    /// node's free slots.
    pub(super) fn release_share(&mut self, job: usize) {
        let gpu = std::mem::replace(&mut self.job_gpu[job], u32::MAX);
        if gpu == u32::MAX {
            return;
        }
        let gpu = gpu as usize;
        let Some(need) = self.plans[self.jobs[job].class].need else {
            return;
        };
        self.settle_sharing_loss(gpu);
        self.shared_gpus[gpu].give(&need);
        if self.shared_gpus[gpu].jobs == 0 {
            self.shared_live -= 1;
            self.free_shared.push(gpu as u32);
            let node = self.shared_gpus[gpu].node as usize;
            if !self.nodes[node].released {
                let free = self.nodes[node].free + 1;
                self.set_free(node, free);
            }
        }
    }

    /// Charges the part of shared GPU `gpu` no job held since it last changed, while its node
    /// was ready, as GPU-sharing loss.
    fn settle_sharing_loss(&mut self, gpu: usize) {
        let g = &mut self.shared_gpus[gpu];
        let since = std::mem::replace(&mut g.since_s, self.now);
        let (node, jobs, held) = (g.node as usize, g.jobs, g.held);
        let n = &self.nodes[node];
        if jobs == 0 || !n.ready || n.released {
            return;
        }
        let from = since.max(n.ready_at_s);
        let loss = (1.0 - held).max(0.0) * (self.now - from).max(0) as f64;
        self.charge(node, Category::GpuSharingLoss, loss);
    }

    /// At the horizon: the loss of every shared GPU still live.
    pub(super) fn settle_shared_gpus_at_horizon(&mut self) {
        for gpu in 0..self.shared_gpus.len() {
            if self.shared_gpus[gpu].jobs > 0 {
                self.settle_sharing_loss(gpu);
            }
        }
    }
}
