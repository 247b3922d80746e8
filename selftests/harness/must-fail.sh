#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A test of the harness itself: this test always fails, and the host must
# see it fail (it is listed as an expected failure, so the host reports
# "ok" only when it counted it as failed).
#
# alloc-tramp-expect: fail

echo "TAP version 13"
echo "1..2"
echo "ok 1 - a passing line does not hide a failing one"
echo "not ok 2 - deliberately failing"
