//! A hosted API's rate limit, minute by minute: a budget of requests and of tokens each minute
//! (a per-minute quota refilled at the minute; assumption: the providers state their quotas
//! per minute and do not publish the window), requests beyond it refused with HTTP 429 and
//! either retried after a stated delay, up to a number of attempts, or dropped.
//!
//! Requests are counted as a fluid, as the serving pool counts them: a minute admits the
//! smaller of its demand (new requests and retries due) and its budget, and refuses the rest in
//! proportion, new and retried alike. A retry is due the minute its delay ends, and never in
//! the minute it was refused (that minute's budget is spent).

/// A rate limit: what a minute admits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limit {
    /// Requests a minute (infinite: none).
    pub requests_per_minute: f64,
    /// Tokens a minute (infinite: none).
    pub tokens_per_minute: f64,
    /// Tokens one request counts against the token budget (the providers count the input and
    /// the output; a provisioned deployment weighs output tokens more).
    pub tokens_per_request: f64,
}

impl Limit {
    /// Requests a minute admits.
    pub fn requests_admitted(&self) -> f64 {
        let by_tokens = if self.tokens_per_request > 0.0 {
            self.tokens_per_minute / self.tokens_per_request
        } else {
            f64::INFINITY
        };
        self.requests_per_minute.min(by_tokens)
    }
}

/// What happens to a refused request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OnRefusal {
    /// Sent again after `delay_s`, at most `attempts` times in all (the first included), then
    /// dropped.
    Retry {
        /// Seconds from the refusal to the next attempt.
        delay_s: f64,
        /// Attempts in all, the first included (the AWS SDKs' standard mode makes 3).
        attempts: u32,
    },
    /// Dropped at once.
    Drop,
}

/// One minute's count.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LimitedMinute {
    /// Requests that arrived this minute (not retries).
    pub arrived: f64,
    /// Requests admitted (new and retried).
    pub admitted: f64,
    /// Of them, retries: each waited at least one delay before its answer began.
    pub admitted_after_retry: f64,
    /// 429 responses given this minute.
    pub refused: f64,
    /// Requests given up this minute (out of attempts, or dropped at once).
    pub dropped: f64,
    /// Of the admitted, those on their k-th attempt at index k (1: new requests; index 0
    /// unused).
    pub admitted_by_attempt: [f64; ATTEMPTS_MAX as usize + 1],
}

/// The limit's state across minutes: the retries still to come.
#[derive(Debug, Clone, PartialEq)]
pub struct Limiter {
    limit: Limit,
    on_refusal: OnRefusal,
    /// Retries due, by minute from now (index 0: this minute), by the attempt they make.
    due: Vec<Vec<f64>>,
}

/// Longest retry delay, seconds: an hour (a client that waits longer has given up).
pub const RETRY_DELAY_MAX_S: f64 = 3_600.0;
/// Most attempts a request makes in all.
pub const ATTEMPTS_MAX: u32 = 20;

impl Limiter {
    /// A limiter with no retry pending, or why its settings cannot be: a delay that is not
    /// from 0 to [`RETRY_DELAY_MAX_S`], attempts not from 1 to [`ATTEMPTS_MAX`], or a budget
    /// that is not a number of at least 0.
    pub fn new(limit: Limit, on_refusal: OnRefusal) -> Result<Limiter, String> {
        if let OnRefusal::Retry { delay_s, attempts } = on_refusal {
            if !(0.0..=RETRY_DELAY_MAX_S).contains(&delay_s) {
                return Err(format!(
                    "a retry delay of {delay_s} s: give 0 to {RETRY_DELAY_MAX_S} s"
                ));
            }
            if !(1..=ATTEMPTS_MAX).contains(&attempts) {
                return Err(format!("{attempts} attempts: give 1 to {ATTEMPTS_MAX}"));
            }
        }
        let budget = [
            limit.requests_per_minute,
            limit.tokens_per_minute,
            limit.tokens_per_request,
        ];
        if budget.iter().any(|v| v.is_nan() || *v < 0.0) {
            return Err(format!(
                "a rate limit of {} requests and {} tokens a minute at {} tokens a request: \
                 each must be a number of at least 0 (infinite: no limit)",
                limit.requests_per_minute, limit.tokens_per_minute, limit.tokens_per_request
            ));
        }
        Ok(Limiter {
            limit,
            on_refusal,
            due: Vec::new(),
        })
    }

    /// Minutes from a refusal to its retry: the delay's minutes, at least the next.
    fn retry_after_minutes(delay_s: f64) -> usize {
        ((delay_s / 60.0).ceil() as usize).max(1)
    }

    /// The next minute, with `arrived` new requests.
    pub fn minute(&mut self, arrived: f64) -> LimitedMinute {
        // Retries due now, by the attempt they make (2 = the first retry).
        let retries: Vec<f64> = if self.due.is_empty() {
            Vec::new()
        } else {
            self.due.remove(0)
        };
        let retried: f64 = retries.iter().sum();
        let demand = arrived + retried;
        let admitted = demand.min(self.limit.requests_admitted());
        let refused = demand - admitted;
        let kept = if demand > 0.0 { admitted / demand } else { 1.0 };
        let mut out = LimitedMinute {
            arrived,
            admitted,
            admitted_after_retry: retried * kept,
            refused,
            dropped: 0.0,
            admitted_by_attempt: [0.0; ATTEMPTS_MAX as usize + 1],
        };
        out.admitted_by_attempt[1] = arrived * kept;
        for (k, &n) in retries.iter().enumerate().skip(2) {
            out.admitted_by_attempt[k] += n * kept;
        }
        if refused <= 0.0 {
            return out;
        }
        let refused_share = 1.0 - kept;
        match self.on_refusal {
            OnRefusal::Drop => out.dropped = refused,
            OnRefusal::Retry { delay_s, attempts } => {
                // Attempt counts: new requests made attempt 1, retries[k] attempt k (slots 0
                // and 1 unused); refused, each makes its next attempt.
                let mut next = vec![0.0; retries.len().max(2) + 1];
                next[2] += arrived * refused_share;
                for (k, &n) in retries.iter().enumerate().skip(1) {
                    next[k + 1] += n * refused_share;
                }
                let after = Self::retry_after_minutes(delay_s);
                if self.due.len() < after {
                    self.due.resize(after, Vec::new());
                }
                for (attempt, &n) in next.iter().enumerate().skip(2) {
                    if n <= 0.0 {
                        continue;
                    }
                    if attempt as u32 > attempts {
                        out.dropped += n;
                    } else {
                        let slot = &mut self.due[after - 1];
                        if slot.len() <= attempt {
                            slot.resize(attempt + 1, 0.0);
                        }
                        slot[attempt] += n;
                    }
                }
            }
        }
        out
    }

    /// Retries still to come.
    pub fn pending(&self) -> f64 {
        self.due.iter().flatten().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bedrock's Llama 3.1 70B quota: 400 requests and 300,000 tokens a minute; requests of
    /// 500 tokens (the token budget then holds 600 a minute, so requests bind).
    fn bedrock() -> Limit {
        Limit {
            requests_per_minute: 400.0,
            tokens_per_minute: 300_000.0,
            tokens_per_request: 500.0,
        }
    }

    #[test]
    fn a_spike_over_the_limit_is_refused_in_the_share_it_exceeds() {
        // 100 a minute, then a minute of 1,000: 600 of them (60 %) get a 429 and are dropped.
        let mut l = Limiter::new(bedrock(), OnRefusal::Drop).unwrap();
        assert_eq!(l.minute(100.0).refused, 0.0);
        let spike = l.minute(1_000.0);
        assert_eq!(
            (spike.admitted, spike.refused, spike.dropped),
            (400.0, 600.0, 600.0)
        );
        assert_eq!(spike.refused / spike.arrived, 0.6);
        assert_eq!(l.minute(100.0).admitted, 100.0);
        // Longer requests: 1,000 tokens each, so the token budget admits 300 a minute.
        let long = Limit {
            tokens_per_request: 1_000.0,
            ..bedrock()
        };
        let mut l = Limiter::new(long, OnRefusal::Drop).unwrap();
        assert_eq!(l.minute(1_000.0).refused, 700.0);
    }

    #[test]
    fn retries_come_back_after_their_delay_until_their_attempts_run_out() {
        // The same spike with retries a minute later, 3 attempts in all (the SDK's standard
        // mode). By hand, at 100 new requests a minute after the spike:
        // minute 1: 1,000 → 400 in, 600 refused (attempt 2 next minute);
        // minute 2: 100 + 600 = 700 → 400 in (4/7 of each), 300 refused: 300/7 new ones
        //   (attempt 2) and 1,800/7 retries (attempt 3), all due next minute;
        // minute 3: 100 + 300 = 400 → all in. Nothing dropped, 900 429s in all.
        let retry = OnRefusal::Retry {
            delay_s: 30.0,
            attempts: 3,
        };
        let mut l = Limiter::new(bedrock(), retry).unwrap();
        let m1 = l.minute(1_000.0);
        let m2 = l.minute(100.0);
        let m3 = l.minute(100.0);
        assert_eq!((m1.admitted, m1.refused), (400.0, 600.0));
        assert!((m2.admitted - 400.0).abs() < 1e-9 && (m2.refused - 300.0).abs() < 1e-9);
        assert!((m2.admitted_after_retry - 600.0 * 4.0 / 7.0).abs() < 1e-9);
        assert!((m3.admitted - 400.0).abs() < 1e-9 && m3.refused.abs() < 1e-9);
        assert_eq!(m1.dropped + m2.dropped + m3.dropped, 0.0);
        assert!(l.pending().abs() < 1e-9);
        // With 2 attempts in all, minute 2's refused retries (1,800/7) are dropped.
        let mut l = Limiter::new(
            bedrock(),
            OnRefusal::Retry {
                delay_s: 30.0,
                attempts: 2,
            },
        )
        .unwrap();
        l.minute(1_000.0);
        let m2 = l.minute(100.0);
        assert!((m2.dropped - 1_800.0 / 7.0).abs() < 1e-9, "{}", m2.dropped);
        // A delay of 150 s brings the retries back in the third minute after, not sooner.
        let mut l = Limiter::new(
            bedrock(),
            OnRefusal::Retry {
                delay_s: 150.0,
                attempts: 3,
            },
        )
        .unwrap();
        l.minute(1_000.0);
        assert_eq!(l.minute(0.0).admitted, 0.0);
        assert_eq!(l.minute(0.0).admitted, 0.0);
        assert_eq!(l.minute(0.0).admitted, 400.0);
        // Settings no client has are refused, not run.
        let refused = |on| Limiter::new(bedrock(), on).unwrap_err();
        assert!(refused(OnRefusal::Retry {
            delay_s: f64::INFINITY,
            attempts: 3
        })
        .contains("retry delay"));
        assert!(refused(OnRefusal::Retry {
            delay_s: 1.0,
            attempts: 0
        })
        .contains("attempts"));
    }
}
