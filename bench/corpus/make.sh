#!/usr/bin/env bash
# make.sh builds the benchmark corpora: about 4 MB of real text per corpus, in
# the encodings the benchmarks measure. It is reproducible from text on a
# Debian machine: the HTML specification drafts in ../shared/seeds (English
# and Japanese) and Debian's translated man pages (Japanese, Russian,
# Chinese, French), converted with iconv. Output goes to corpus/large/ (not
# committed); the first 64 KB of each land in ../testdata/sample/ (committed,
# so CI benchmarks run without this script).
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

# fill writes $2 bytes of text from stdin, repeating it as needed, cutting at a line end.
fill() {
  local tmp; tmp=$(mktemp)
  cat >"$tmp"
  local have; have=$(stat -c %s "$tmp")
  if [ "$have" -eq 0 ]; then echo "no text" >&2; exit 1; fi
  : >"$tmp.rep"
  while [ "$(stat -c %s "$tmp.rep")" -lt "$1" ]; do cat "$tmp" >>"$tmp.rep"; done
  head -c "$1" "$tmp.rep" | python3 -c 'import sys; b=sys.stdin.buffer.read(); i=b.rfind(b"\n"); sys.stdout.buffer.write(b[:i+1] if i>0 else b)'
  rm -f "$tmp" "$tmp.rep"
}

# html wraps text from stdin as an HTML page with no charset declaration.
html() {
  printf '<!DOCTYPE html>\n<html><head><title>%s</title></head>\n<body><pre>\n' "$1"
  cat
  printf '</pre></body></html>\n'
}

cat "$seeds/000_d14f5d63ec22e8af.txt" "$seeds/001_cbbf19875af65805.txt" | html "HTML 5" | fill "$size" >"$out/utf-8-english.html"
{ cat "$seeds/004_65b3315b7d05d1fc.txt"; mantext ja; } | html "HTML 5" | fill "$size" >"$out/utf-8-japanese.html"
mantext ru | html "man" | fill "$size" >"$out/utf-8-russian.html"
mantext zh_CN | html "man" | fill "$size" >"$out/utf-8-chinese.html"
mantext fr | html "man" | fill "$size" >"$out/utf-8-french.html"

iconv -c -f UTF-8 -t WINDOWS-1252 <"$out/utf-8-french.html" >"$out/windows-1252.html"
iconv -c -f UTF-8 -t WINDOWS-1251 <"$out/utf-8-russian.html" >"$out/windows-1251.html"
iconv -c -f UTF-8 -t SHIFT_JIS <"$out/utf-8-japanese.html" >"$out/shift_jis.html"
iconv -c -f UTF-8 -t EUC-JP <"$out/utf-8-japanese.html" >"$out/euc-jp.html"
iconv -c -f UTF-8 -t GBK <"$out/utf-8-chinese.html" >"$out/gbk.html"

for f in "$out"/*.html; do
  head -c 65536 "$f" >"$sample/$(basename "$f")"
done
ls -l "$out" "$sample"
