#!/usr/bin/env bash
# make.sh builds the benchmark texts, in UTF-8: about 4 MB of real text per
# corpus, reproducible on a Debian machine from the HTML specification drafts
# in ../shared/seeds (English and Japanese) and Debian's translated man pages
# (Japanese, Russian, Chinese, French). Output goes to corpus/large/ (not
# committed); the start of each lands in ../testdata/sample/ (committed, so CI
# benchmarks run without this script).
#
# The pages in legacy encodings (windows-1252, windows-1251, Shift_JIS,
# EUC-JP, GBK) are not files: the benchmarks encode them from these texts with
# golang.org/x/text when they start (internal/benchpage), so that each text
# has one source. A sample holds as much text as its legacy encodings need
# for a 64 KB page (the French one 67 KB, the Russian one 104 KB: Cyrillic
# takes two bytes in UTF-8, one in windows-1251).
#
# Each line of text is kept once: a line of 16 bytes or more that stood
# earlier in this corpus or in one made before it is dropped (the man pages
# repeat their translators' credits and GNU's footer; the Japanese draft
# keeps the English one's untranslated markup), so that no page repeats
# itself or another.
#
# Usage: bench/corpus/make.sh [SIZE_BYTES]   (default 4194304)
set -euo pipefail
cd "$(dirname "$0")"
size=${1:-4194304}
seeds=${SEEDS:-../../../shared/seeds}
out=large
sample=../testdata/sample
mkdir -p "$out" "$sample"

need=()
for p in manpages-ja manpages-ru manpages-zh manpages-fr; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}" >&2
  for try in 1 2 3 4 5; do
    if DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >/dev/null; then break; fi
    apt-get update -q >/dev/null || true
    sleep 5
  done
fi

# mantext prints the running text of the man pages of one language: groff
# requests, comments and font escapes removed. Crude but it keeps the words.
mantext() {
  find "/usr/share/man/$1" -name '*.gz' -type f | LC_ALL=C sort | while read -r f; do
    zcat "$f" 2>/dev/null
  done | grep -av '^[.'"'"']' | sed -E 's/\\f[BIRP]//g; s/\\f\(..//g; s/\\\(..//g; s/\\[-&e ]//g; s/\\//g' | grep -a .
}

# once passes each line of stdin unless it is 16 bytes or longer and stood
# before, here or in a text once passed earlier (the lines in $seen).
seen=$(mktemp)
trap 'rm -f "$seen"' EXIT
once() {
  LC_ALL=C awk -v seen="$seen" '
    BEGIN { while ((getline l < seen) > 0) s[l] = 1 }
    length($0) < 16 { print; next }
    !($0 in s) { s[$0] = 1; print; print >>seen }'
}

# cut writes the first $1 bytes of stdin, cut at a line end.
cut() {
  python3 -c 'import sys; b=sys.stdin.buffer.read()[:int(sys.argv[1])]; i=b.rfind(b"\n"); sys.stdout.buffer.write(b[:i+1] if i>0 else b)' "$1"
}

# fill writes $1 bytes of text from stdin, repeating it as needed, cutting at a line end.
fill() {
  local tmp; tmp=$(mktemp)
  cat >"$tmp"
  local have; have=$(stat -c %s "$tmp")
  if [ "$have" -eq 0 ]; then echo "no text" >&2; exit 1; fi
  : >"$tmp.rep"
  while [ "$(stat -c %s "$tmp.rep")" -lt "$1" ]; do cat "$tmp" >>"$tmp.rep"; done
  cut "$1" <"$tmp.rep"
  rm -f "$tmp" "$tmp.rep"
}

# html wraps text from stdin as an HTML page with no charset declaration.
html() {
  printf '<!DOCTYPE html>\n<html><head><title>%s</title></head>\n<body><pre>\n' "$1"
  cat
  printf '</pre></body></html>\n'
}

# page NAME TITLE SAMPLE_BYTES writes corpus NAME from stdin: the large one
# and its sample.
page() {
  html "$2" | fill "$size" >"$out/$1.html"
  cut "$3" <"$out/$1.html" >"$sample/$1.html"
}

cat "$seeds/000_d14f5d63ec22e8af.txt" "$seeds/001_cbbf19875af65805.txt" | once | page utf-8-english "HTML 5" 65536
{ cat "$seeds/004_65b3315b7d05d1fc.txt"; mantext ja; } | once | page utf-8-japanese "HTML 5" 83968
mantext ru | once | page utf-8-russian man 112640
mantext zh_CN | once | page utf-8-chinese man 88064
mantext fr | once | page utf-8-french man 71680
ls -l "$out" "$sample"
