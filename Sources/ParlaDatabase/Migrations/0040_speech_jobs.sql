-- Speech scoring as a worker role (`parla worker speech`): an API server
-- that sees a live worker queues the recording here and waits for its
-- result; workers take jobs with FOR UPDATE SKIP LOCKED, so each is taken
-- once however many run. Unlogged: a job lives seconds, and one lost in a
-- crash is withdrawn by the server waiting for it, which then scores it
-- itself. The recording is sealed like a kept attempt's and dropped as
-- soon as the job is done; finished jobs are swept after ten minutes.
CREATE UNLOGGED TABLE speech_jobs (
    id uuid PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('score', 'align')),
    language text NOT NULL,
    text text NOT NULL,
    max_seconds double precision NOT NULL,
    audio bytea,
    queued_at timestamptz NOT NULL DEFAULT now(),
    taken_by text,
    taken_at timestamptz,
    tries integer NOT NULL DEFAULT 0,
    finished_at timestamptz,
    result bytea,
    error text,
    retry_after integer
);
CREATE INDEX speech_jobs_waiting ON speech_jobs (queued_at) WHERE finished_at IS NULL;

-- Each running worker, seen every two seconds: a server queues jobs only
-- while one was seen lately, and scores in-process otherwise.
CREATE UNLOGGED TABLE speech_workers (
    name text PRIMARY KEY,
    threads integer NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    seen_at timestamptz NOT NULL DEFAULT now()
);
