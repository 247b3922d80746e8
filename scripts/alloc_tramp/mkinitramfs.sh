#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the busybox test initramfs (uncompressed newc cpio).
#
# Usage: mkinitramfs.sh TOP OUT.cpio TEST...
#   TEST is a path relative to selftests/, e.g. allocinfo/format.sh

set -eu

top=$1
out=$2
shift 2

stage=$out.d
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,etc,proc,sys,dev,tmp,root,selftests}
cp /bin/busybox "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
cp "$top/scripts/alloc_tramp/guest-init" "$stage/init"
chmod +x "$stage/init"
echo "root:x:0:0:root:/root:/bin/sh" > "$stage/etc/passwd"
echo "nobody:x:65534:65534:nobody:/:/bin/sh" >> "$stage/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$stage/etc/group"

for t in "$@"; do
	mkdir -p "$stage/selftests/$(dirname "$t")"
	# The whole folder of the test: helpers and modules it ships.
	cp -a "$top/selftests/$(dirname "$t")/." "$stage/selftests/$(dirname "$t")/"
	echo "$t" >> "$stage/selftests/list"
done
touch "$stage/selftests/list"
# Helpers every test may source
cp -a "$top/selftests/lib" "$stage/selftests/"
# Built test modules, if any, come from build/modules/<suite>/.
if [ -n "${MODULES_DIR:-}" ] && [ -d "$MODULES_DIR" ]; then
	cp -a "$MODULES_DIR/." "$stage/selftests/"
fi

# A tree for the root, if any: the kernel's own modules in /lib/modules.
if [ -n "${GUEST_ROOT:-}" ] && [ -d "$GUEST_ROOT" ]; then
	cp -a "$GUEST_ROOT/." "$stage/"
fi

# Static user-space tools, if any: GUEST_TOOLS is a list of paths.
for tool in ${GUEST_TOOLS:-}; do
	[ -f "$tool" ] && cp "$tool" "$stage/bin/"
done

(cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet) > "$out"
