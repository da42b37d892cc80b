extension PlayLog {
    /// Each schema version's migration from the one before (index 0: from an empty file to version 1).
    static let migrations = [
        """
        CREATE TABLE showings (
          id INTEGER PRIMARY KEY,
          start_utc TEXT NOT NULL,
          end_utc TEXT,
          heartbeat_utc TEXT,
          duration REAL,
          path TEXT NOT NULL,
          size INTEGER,
          mtime_utc TEXT,
          kind TEXT NOT NULL,
          region TEXT NOT NULL DEFAULT 'main',
          layout TEXT,
          element TEXT,
          reason TEXT,
          screen_on INTEGER NOT NULL DEFAULT 1,
          screen_off_ms INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX showings_by_start ON showings(start_utc);
        CREATE INDEX showings_open ON showings(end_utc) WHERE end_utc IS NULL;
        """,
        // 2: the report by day walks this index in its order, reading nothing else (1,000,000 showings in about
        // half a second here, against 1.4 s through showings_by_start and a sort)
        """
        CREATE INDEX showings_by_day ON showings(substr(start_utc, 1, 10), start_utc, end_utc, duration);
        """,
        // 3: the screen each showing was on (one box drives several displays); rows from before were on the one
        // screen there was, `main`
        """
        ALTER TABLE showings ADD COLUMN screen TEXT NOT NULL DEFAULT 'main';
        """,
        // 4: the hash chain (PlayLogChain) and its marks, and the head's signatures (PlayLogSignatures); the rows
        // already there are chained when the log is opened, from a start mark saying so
        """
        ALTER TABLE showings ADD COLUMN chain TEXT;
        ALTER TABLE showings ADD COLUMN chain_seq INTEGER;
        CREATE UNIQUE INDEX showings_by_chain ON showings(chain_seq) WHERE chain_seq IS NOT NULL;
        CREATE TABLE chain_marks (
          id INTEGER PRIMARY KEY,
          row_id INTEGER NOT NULL,
          kind TEXT NOT NULL,
          time_utc TEXT NOT NULL,
          seq INTEGER,
          previous TEXT,
          note TEXT
        );
        CREATE TABLE signatures (
          id INTEGER PRIMARY KEY,
          row_id INTEGER NOT NULL,
          head TEXT NOT NULL,
          time_utc TEXT NOT NULL,
          public_key TEXT NOT NULL,
          signature TEXT NOT NULL
        );
        """,
        // 5: each run of kiosk that wrote the log, so that one which ended without closing it (a crash, a power cut)
        // is found at the next start, and the showings its last batch held, never written, are a recorded break;
        // and proof of display (PlayLogDisplay): what the display side knew of each showing, its verdict, and the
        // proof thumbnails, each distinct one stored once. Rows from before have no verdict (counted as seen) and
        // are chained as before (`chain_v` NULL or 1: `kiosk-showing-v1`; 2: `kiosk-showing-v2`, PlayLogChain); the
        // report by day counts only seen showings, so its index covers the verdict too
        """
        CREATE TABLE runs (
          id INTEGER PRIMARY KEY,
          started_utc TEXT NOT NULL,
          ended_utc TEXT,
          clean INTEGER NOT NULL DEFAULT 0,
          batch_s REAL NOT NULL DEFAULT 0
        );
        ALTER TABLE showings ADD COLUMN display_state TEXT;
        ALTER TABLE showings ADD COLUMN display_id TEXT;
        ALTER TABLE showings ADD COLUMN cec_power TEXT;
        ALTER TABLE showings ADD COLUMN verdict TEXT;
        ALTER TABLE showings ADD COLUMN thumb TEXT;
        ALTER TABLE showings ADD COLUMN chain_v INTEGER;
        DROP INDEX showings_by_day;
        CREATE INDEX showings_by_day ON showings(substr(start_utc, 1, 10), start_utc, end_utc, duration, verdict);
        CREATE TABLE thumbs (
          hash TEXT PRIMARY KEY,
          width INTEGER NOT NULL,
          height INTEGER NOT NULL,
          rgb TEXT NOT NULL
        ) WITHOUT ROWID;
        """,
    ]
}
