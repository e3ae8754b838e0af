#!/bin/sh
# file_pre_save / file_pre_patch: refuse writes to secrets; the config's `paths` selects the files.
here=$(dirname "$0")
file=$("$here/json-field.sh" path)
echo "blocked: $file holds secrets and is edited by humans only" >&2
exit 2
