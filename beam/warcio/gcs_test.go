package warcio

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/fsouza/fake-gcs-server/fakestorage"
)

// fakeGCS serves the test files as the objects of the bucket "crawl" from
// a Cloud Storage emulator on the loopback interface, which the clients of
// the test (this package's and Beam's gcs filesystem) reach through
// STORAGE_EMULATOR_HOST.
func fakeGCS(t *testing.T, dir string) {
	t.Helper()
	var objs []fakestorage.Object
	for _, name := range testFiles {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, fakestorage.Object{ObjectAttrs: fakestorage.ObjectAttrs{BucketName: "crawl", Name: name}, Content: b})
	}
	srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{Scheme: "http", Host: "127.0.0.1", InitialObjects: objs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	t.Setenv("STORAGE_EMULATOR_HOST", strings.TrimPrefix(srv.URL(), "http://"))
}

// gcsLines returns the command's lines for name with its path as gs://crawl/name.
func gcsLines(t *testing.T, stdin string, args ...string) []string {
	t.Helper()
	want := command(t, stdin, args...)
	for i := range want {
		want[i] = strings.Replace(want[i], `"file":"`, `"file":"gs://crawl/`, 1)
	}
	return want
}

// TestGCS reads objects of Cloud Storage (an emulator): cut into pieces
// at record boundaries with ranged reads, as local files are, piece by
// piece and with a runner's splits.
func TestGCS(t *testing.T) {
	dir := setup(t)
	fakeGCS(t, dir)
	for _, name := range testFiles {
		want := gcsLines(t, "", name)
		fn := &readFn{Opts: Options{PartSize: 16 << 10}}
		s := Span{Path: "gs://crawl/" + name}
		ps := initial(t, fn, s)
		local := initial(t, fn, Span{Path: filepath.Join(dir, name)})
		if !slices.Equal(ps, local) || (name == "gen.warc.gz" || name == "bad.warc.gz") && len(ps) < 3 {
			t.Errorf("%s: pieces %v; want %v, those of the local file", s.Path, ps, local)
		}
		var got []string
		for _, p := range ps {
			got = append(got, run(t, fn, s, p, nil)...)
		}
		diff(t, s.Path, got, want)
		split := func(rt *sdf.LockRTracker, n int) any {
			_, res, err := rt.TrySplit(0.3)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		got = got[:0]
		for _, p := range ps {
			got = append(got, run(t, fn, s, p, split)...)
		}
		slices.SortStableFunc(got, func(a, b string) int { return cmp.Compare(offsetOf(t, a), offsetOf(t, b)) })
		diff(t, s.Path+", split", got, want)
	}
}

// TestPrismGCS runs Read on Prism over objects of Cloud Storage (an
// emulator) and index rows of one.
func TestPrismGCS(t *testing.T) {
	dir := setup(t)
	fakeGCS(t, dir)
	var want, paths []any
	for _, name := range []string{"wget.warc.gz", "gen.warc.gz", "bad.warc.gz"} {
		for _, l := range gcsLines(t, "", name) {
			want = append(want, l)
		}
		paths = append(paths, "gs://crawl/"+name)
	}
	rows := []Span{{"wget.warc.gz", 1919, 1005}, {"wget.warc.gz", 11000, 5000}}
	var list strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&list, "%s\t%d\t%d\n", r.Path, r.Offset, r.Length)
	}
	for _, l := range gcsLines(t, list.String(), "--files-from", "-") {
		want = append(want, l)
	}
	p, s := beam.NewPipelineWithRoot()
	spans := Paths(s, beam.Create(s, paths...))
	for _, r := range rows {
		r.Path = "gs://crawl/" + r.Path
		spans = beam.Flatten(s, spans, beam.Create(s, r))
	}
	docs := Read(s, spans, Options{PartSize: 8 << 10})
	passert.Equals(s, beam.ParDo(s, JSON, docs), want...)
	ptest.RunAndValidate(t, p)
}
