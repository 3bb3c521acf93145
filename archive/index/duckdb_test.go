package index_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/archive/index"
)

// duckdb runs query with DuckDB through testdata/duckdb.mjs and returns
// its rows. DuckDB comes from the npm package @duckdb/node-api in the
// node_modules directory of CHARSNIFF_DUCKDB (.ci/run installs it there);
// without it the test is skipped, saying so.
func duckdb(t *testing.T, query string) []map[string]any {
	t.Helper()
	dir := os.Getenv("CHARSNIFF_DUCKDB")
	if dir == "" {
		t.Skip("CHARSNIFF_DUCKDB is not set: no DuckDB to read the file with (.ci/run installs @duckdb/node-api and sets it)")
	}
	script, err := filepath.Abs(filepath.Join("testdata", "duckdb.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	// Node resolves an ES module's imports from the script's directory, so
	// the script runs from a copy next to the packages.
	run := filepath.Join(t.TempDir(), "duckdb.mjs")
	src, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(run, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "node_modules"), filepath.Join(filepath.Dir(run), "node_modules")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", run, query)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("duckdb: %v\n%s", err, stderr.String())
	}
	var rows []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("duckdb printed %q: %v", sc.Text(), err)
		}
		rows = append(rows, r)
	}
	return rows
}

// TestDuckDBJoin writes the sample rows to a Parquet file, reads it with
// DuckDB, and joins it to a sample in Common Crawl's index schema on
// (warc_filename, warc_record_offset, warc_record_length): every row must
// find its capture.
func TestDuckDBJoin(t *testing.T) {
	path := filepath.Join(t.TempDir(), "charsets.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := index.NewParquetWriter(f)
	rs := rows()
	for i := range rs {
		if err := w.Write(&rs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	sample, err := filepath.Abs(filepath.Join("testdata", "cc-index-sample.csv"))
	if err != nil {
		t.Fatal(err)
	}
	got := duckdb(t, `
		SELECT cc.url, cc.fetch_status, ours.encoding, ours.confidence, ours.source
		FROM read_parquet('`+path+`') AS ours
		JOIN read_csv('`+sample+`') AS cc
		  ON cc.warc_filename = ours.warc_filename
		 AND cc.warc_record_offset = ours.warc_record_offset
		 AND cc.warc_record_length = ours.warc_record_length
		ORDER BY ours.warc_record_offset`)
	var lines []string
	for _, r := range got {
		b, _ := json.Marshal(r)
		lines = append(lines, string(b))
	}
	want := []string{
		`{"confidence":"certain","encoding":"shift_jis","fetch_status":"200","source":"prescan","url":"https://www.example.jp/news?id=3"}`,
		`{"confidence":"tentative","encoding":"windows-1251","fetch_status":"200","source":"autodetect","url":"http://example.ru/"}`,
		`{"confidence":null,"encoding":null,"fetch_status":"200","source":null,"url":"http://example.com/x"}`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("the join:\ngot\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	// (DuckDB's JSON rows spell 64-bit integers as strings.)

	// The provenance columns: the records whose declarations lost, and
	// what the declared decode would have given, per host.
	got = duckdb(t, `
		SELECT cc.url_host_name AS host,
		       count(*) FILTER (WHERE ours.transport_mismatch OR ours.prescan_mismatch) AS mismatched,
		       sum(ours.transport_replacements) AS transport_fffd,
		       string_agg(ours.prescan_encoding || ' by ' || ours.prescan_rule || ' at ' || ours.prescan_offset, ', ') AS declared,
		       any_value(ours.detected_strength) AS strength
		FROM read_parquet('`+path+`') AS ours
		JOIN read_csv('`+sample+`') AS cc
		  ON cc.warc_filename = ours.warc_filename
		 AND cc.warc_record_offset = ours.warc_record_offset
		 AND cc.warc_record_length = ours.warc_record_length
		GROUP BY host ORDER BY host`)
	lines = lines[:0]
	for _, r := range got {
		b, _ := json.Marshal(r)
		lines = append(lines, string(b))
	}
	want = []string{
		`{"declared":null,"host":"example.com","mismatched":"0","strength":null,"transport_fffd":null}`,
		`{"declared":"koi8-r by xml at 88","host":"example.ru","mismatched":"1","strength":null,"transport_fffd":null}`,
		`{"declared":"shift_jis by meta at 88","host":"www.example.jp","mismatched":"1","strength":"statistical","transport_fffd":"12"}`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("the mismatches per host:\ngot\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}

	// The columns and their types as DuckDB sees them.
	schema := duckdb(t, `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('`+path+`'))`)
	types := map[string]string{}
	for _, r := range schema {
		types[r["column_name"].(string)] = r["column_type"].(string)
	}
	for col, typ := range map[string]string{"url": "VARCHAR", "fetch_time": "TIMESTAMP", "fetch_status": "SMALLINT", "warc_record_offset": "BIGINT",
		"transport_mismatch": "BOOLEAN", "prescan_mismatch": "BOOLEAN", "prescan_offset": "INTEGER",
		"transport_replacements": "BIGINT", "prescan_encoding": "VARCHAR", "bom_encoding": "VARCHAR"} {
		if !strings.HasPrefix(types[col], typ) {
			t.Errorf("DuckDB reads %s as %q, want %s", col, types[col], typ)
		}
	}
}
