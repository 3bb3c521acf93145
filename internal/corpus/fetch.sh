#!/bin/sh
# fetch.sh installs the Debian packages whose translated text trains and
# evaluates package detect, then extracts plain UTF-8 text per language into
# $CORPUS (default /tmp/charsniff-corpus), outside the repository.
#
#   sh internal/corpus/fetch.sh && go generate ./detect
#
# The gettext catalogs (.mo) come with ordinary system packages; the list
# below adds those with many translations. Run as root on Debian bookworm.
set -eu
CORPUS=${CORPUS:-/tmp/charsniff-corpus}
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
	manpages-ja manpages-ja-dev manpages-zh manpages-ru manpages-ru-dev manpages-uk \
	manpages-pl manpages-pl-dev manpages-cs manpages-hu manpages-el manpages-tr manpages-vi \
	manpages-de manpages-de-dev manpages-fr manpages-es manpages-it manpages-nl manpages-pt-br \
	manpages-ro manpages-sv manpages-da manpages-fi manpages-mk manpages-sr manpages-id manpages-nb \
	libc-l10n coreutils gettext gnupg-l10n libglib2.0-data libgtk2.0-common shared-mime-info \
	xdg-user-dirs libpam-runtime apt dpkg grep sed tar wget bash findutils diffutils psmisc \
	make man-db systemd xz-utils adduser binutils-common git procps packagekit \
	software-properties-common appstream xkb-data libgstreamer1.0-0 postgresql-client-15
cd "$(dirname "$0")/../.."
go run ./internal/corpus/extract -out "$CORPUS"
