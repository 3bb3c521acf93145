#!/usr/bin/env bash
# make.sh regenerates the sample pages from their UTF-8 sources in src/ with
# iconv, and the expected --decode output in golden/.
#
#   src/NAME.utf8     the page as written, in UTF-8 (line endings as published)
#   NAME.html|xhtml   the page in its target encoding (what charsniff reads)
#   golden/NAME.utf8  what `charsniff --decode` must print for it: the source
#                     with the HTML Standard's newline normalization (CRLF -> LF)
#
# The target encoding is part of the name. iconv's CP932 and CP949 are used
# for Shift_JIS and EUC-KR because the Encoding Standard's Shift_JIS and EUC-KR
# are those Windows code pages; the text avoids the few characters where they
# differ from the older JIS/KS tables anyway.
set -euo pipefail
cd "$(dirname "$0")"

encode() { # NAME ICONV-CHARSET EXT [bom]
	local name=$1 charset=$2 ext=$3 bom=${4:-}
	{
		if [[ $bom == bom ]]; then printf '\xff\xfe'; fi
		iconv -f UTF-8 -t "$charset" "src/$name.utf8"
	} >"$name.$ext"
	# The round trip must give the source back: no character may be lost.
	if ! tail -c +"$((${#bom} ? 3 : 1))" "$name.$ext" | iconv -f "$charset" -t UTF-8 | cmp -s - "src/$name.utf8"; then
		echo "make.sh: $name: $charset round trip differs from the source" >&2
		exit 1
	fi
	mkdir -p golden
	sed 's/\r$//' "src/$name.utf8" >"golden/$name.utf8"
}

encode news-utf8-meta UTF-8 html
encode notes-utf8-nodecl UTF-8 html
encode shop-windows1252-httpequiv CP1252 html
encode blog-windows1252-nodecl CP1252 html
encode news-shiftjis-meta CP932 html
encode shop-gbk-httpequiv GBK html
encode blog-euckr-meta CP949 html
encode news-windows1251-httpequiv CP1251 html
encode letter-utf16le-bom UTF-16LE html bom
encode poem-iso88592-xmldecl ISO-8859-2 xhtml
