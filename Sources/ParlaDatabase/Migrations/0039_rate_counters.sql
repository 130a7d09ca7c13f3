-- Rate limits (RateLimitPolicy) count in fixed windows, here so that every
-- server behind a balancer sees the same count. A key is the SHA-256 of
-- the action and the client's address or account, never the address
-- itself. Unlogged: counts lost in a crash cost nothing but a fresh
-- window, and they need not reach a replica. Windows that have ended are
-- swept (RateLimiter's sweep).
CREATE UNLOGGED TABLE rate_counters (
    key text NOT NULL,
    window_ends timestamptz NOT NULL,
    hits integer NOT NULL,
    PRIMARY KEY (key, window_ends)
);
CREATE INDEX rate_counters_ended ON rate_counters (window_ends);
