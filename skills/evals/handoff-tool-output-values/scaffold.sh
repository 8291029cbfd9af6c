#!/usr/bin/env bash
# Runs in the eval's empty working folder (claude plugin eval --scaffold).
set -euo pipefail
. "$(dirname "$0")/../_project/csvkit.sh"
csvkit_project quoting --plans
