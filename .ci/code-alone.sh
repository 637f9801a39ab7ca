#!/usr/bin/env bash
# The repository speaks of the code alone: nothing of how the work was organised or by whom, no
# project-internal tracker numbers, branch names, or paths outside the repository. History
# is given as a date, a machine and a commit; another project's issue as `owner/repo#N`.
# Prints every hit (file:line:text) and exits 1 if there is any.
set -euo pipefail
cd "$(dirname "$0")/.."

words=(
    '\bsess(ion)s?\b'                     # periods of work, numbered or not
    '\brevie(w)(s|ed|ers?)?\b'            # inspections by a person, and those people
    '\brev[0-9]+\b'
    '\baudit(s|ed|ors?)?\b'
    "\\bthe lead's|\\b(to|by|for|from) the lead\\b"
    'help(er)s.? (figures|builds|notes|runs)' # assistants as people (the code's helper threads
    '\bother help(er)s\b'                 #   and helper functions are fine)
    '\bmerged (main)\b'
    '\b(main|branch) `?wip'
    '\bwip-[a-z]'                         # branch names
    '\bissues? #?[0-9]+'                  # project-internal issues: the word, then a number
    '\(#[0-9]+\)'                          # a number in brackets; another project's owner/repo#N is fine
    '\b(see|in|per|from|fixes|closes|of) #[0-9]+'
    '\bstyle rule [0-9]'
    'LZ4-NOTES'
    'DESIGN\.md'
    '\.\./shared|shared/corpus'           # paths outside the repository
)
pattern="$(IFS='|'; echo "${words[*]}")"

# This file states the pattern, so it is not scanned; Cargo.lock is generated.
if git grep -I -n -i -E "$pattern" -- . ':!Cargo.lock' ':!.ci/code-alone.sh'; then
    echo "code-alone: the lines above speak of how the code was made, or of files outside the repository" >&2
    exit 1
fi
echo "code-alone: no hits"
