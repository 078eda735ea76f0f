package demo

// BulkBatch is the loader's transaction size, for the plain-insert
// baseline of BenchmarkBulkLoad.
const BulkBatch = bulkBatch
