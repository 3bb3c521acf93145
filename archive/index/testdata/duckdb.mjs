// duckdb.mjs runs one SQL query with DuckDB (npm @duckdb/node-api) and
// prints its rows as JSON lines: node duckdb.mjs 'SELECT ...'. The Go
// tests of package index use it to read the Parquet files they write.
import { DuckDBInstance } from '@duckdb/node-api';

const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
const reader = await con.runAndReadAll(process.argv[2]);
for (const row of reader.getRowObjectsJson()) {
  console.log(JSON.stringify(row));
}
