index batches_target ON batches: CREATE INDEX batches_target ON batches(target)
index batches_ts ON batches: CREATE INDEX batches_ts ON batches(ts)
index idx_batches_status_kind ON batches: CREATE INDEX "idx_batches_status_kind" ON "batches" ("status", "kind")
index idx_changes_batch ON changes: CREATE INDEX "idx_changes_batch" ON "changes" ("batch")
index idx_edges_from_id_type_to_id ON edges: CREATE UNIQUE INDEX "idx_edges_from_id_type_to_id" ON "edges" ("from_id", "type", "to_id")
index idx_edges_to_id ON edges: CREATE INDEX "idx_edges_to_id" ON "edges" ("to_id")
index idx_nodes_id ON nodes: CREATE UNIQUE INDEX "idx_nodes_id" ON "nodes" ("id")
index sqlite_autoindex_history_counts_1 ON history_counts: 
index sqlite_autoindex_meta_1 ON meta: 
index sqlite_autoindex_picture_1 ON picture: 
index sqlite_autoindex_store_info_1 ON store_info: 
index sqlite_autoindex_vectors_1 ON vectors: 
table batches ON batches: CREATE TABLE "batches" ( "id" INTEGER PRIMARY KEY, "kind" TEXT NOT NULL, "op" TEXT NOT NULL, "label" TEXT NOT NULL, "origin" TEXT NOT NULL, "ts" REAL NOT NULL, "target" INTEGER, "status" TEXT NOT NULL )
table changes ON changes: CREATE TABLE "changes" ( "seq" INTEGER PRIMARY KEY, "batch" INTEGER NOT NULL REFERENCES "batches"("id"), "kind" TEXT NOT NULL, "key" TEXT NOT NULL, "before" TEXT, "after" TEXT )
table edges ON edges: CREATE TABLE "edges" ( "ord" INTEGER PRIMARY KEY, "from_id" TEXT NOT NULL, "to_id" TEXT NOT NULL, "type" TEXT NOT NULL, "seq_to" INTEGER )
table history_counts ON history_counts: CREATE TABLE history_counts (origin TEXT PRIMARY KEY, active INTEGER NOT NULL DEFAULT 0, undone INTEGER NOT NULL DEFAULT 0)
table meta ON meta: CREATE TABLE "meta" ( "key" TEXT PRIMARY KEY, "value" TEXT NOT NULL )
table nodes ON nodes: CREATE TABLE "nodes" ( "ord" INTEGER PRIMARY KEY, "id" TEXT NOT NULL, "type" TEXT NOT NULL, "level" TEXT NOT NULL, "title" TEXT NOT NULL, "seq_to" INTEGER NOT NULL, "fields" TEXT NOT NULL, "parent_id" TEXT NOT NULL, "children_ids" TEXT NOT NULL, "archived" INTEGER NOT NULL, "semantic_rollup" INTEGER NOT NULL, "semantic_depth" INTEGER NOT NULL, "floor_start" INTEGER, "floor_end" INTEGER, "superseded_by" TEXT )
table picture ON picture: CREATE TABLE picture (name TEXT PRIMARY KEY, data BLOB NOT NULL)
table positions ON positions: CREATE TABLE positions (id TEXT PRIMARY KEY, x REAL NOT NULL, y REAL NOT NULL) WITHOUT ROWID
table store_info ON store_info: CREATE TABLE "store_info" ( "key" TEXT PRIMARY KEY, "value" TEXT )
table vectors ON vectors: CREATE TABLE vectors (profile TEXT NOT NULL, id TEXT NOT NULL, digest BLOB NOT NULL, vec BLOB NOT NULL, PRIMARY KEY (profile, id))
trigger batches_chain_ai ON batches: CREATE TRIGGER batches_chain_ai AFTER INSERT ON batches BEGIN UPDATE store_info SET value = CASE WHEN NEW.kind = 'do' AND NEW.status = 'active' THEN 0 WHEN NEW.kind = 'undo' THEN CAST(value AS INTEGER) + 1 WHEN NEW.kind = 'redo' AND coalesce((SELECT max(id) FROM batches WHERE kind = 'undo' AND target = NEW.target), 0) > coalesce((SELECT max(id) FROM batches WHERE kind = 'do' AND status != 'none'), 0) THEN max(0, CAST(value AS INTEGER) - 1) ELSE CAST(value AS INTEGER) END WHERE key = 'redo_chain'; END
trigger batches_count_ad ON batches: CREATE TRIGGER batches_count_ad AFTER DELETE ON batches WHEN OLD.kind = 'do' BEGIN UPDATE history_counts SET active = active - (OLD.status = 'active'), undone = undone - (OLD.status = 'undone') WHERE origin = OLD.origin; END
trigger batches_count_ai ON batches: CREATE TRIGGER batches_count_ai AFTER INSERT ON batches WHEN NEW.kind = 'do' BEGIN INSERT OR IGNORE INTO history_counts(origin) VALUES (NEW.origin); UPDATE history_counts SET active = active + (NEW.status = 'active'), undone = undone + (NEW.status = 'undone') WHERE origin = NEW.origin; END
trigger batches_count_au ON batches: CREATE TRIGGER batches_count_au AFTER UPDATE OF status ON batches WHEN NEW.kind = 'do' BEGIN UPDATE history_counts SET active = active - (OLD.status = 'active') + (NEW.status = 'active'), undone = undone - (OLD.status = 'undone') + (NEW.status = 'undone') WHERE origin = NEW.origin; END
user_version 6
application_id 0x4d475048
