#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install, with apt-get, whatever the workspace needs and is missing.
# Idempotent: prints one line and does nothing when all is there.

PKGS="linux-source-6.12 libelf-dev libdw-dev elfutils qemu-system-x86
busybox-static ccache flex bison bc cpio kmod libssl-dev gcc make perl
python3 xz-utils pkg-config gdb binutils git gnuplot-nox diffstat"

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q ' installed$' || missing="$missing $p"
done

if [ -z "$missing" ]; then
	echo "deps: all installed"
	exit 0
fi

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "deps: installing$missing"
$SUDO apt-get update -qq &&
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
		--no-install-recommends $missing
