#!/bin/sh
# Usage: json-field.sh FIELD < context.json — prints the first string value of "FIELD".
# Plain sed, so the examples need nothing beyond a POSIX shell (no jq).
tr -d '\n' | sed -n "s/.*\"$1\"[[:space:]]*:[[:space:]]*\"\\(\\([^\"\\\\]\\|\\\\.\\)*\\)\".*/\\1/p" | head -n 1
