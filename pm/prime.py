"""pm prime: a short text that teaches an agent session pm (kept under 800 tokens)."""

PRIME = """\
# pm: the task tracker for this project
Tasks are HTML files in a git repo: tasks/<id>-<slug>.html. Never edit the pm-owned lines
(<meta name="pm:...">, title, h1, links and log lists) by hand; use pm. Text you write inside
the problem / fix / verification sections is yours and pm keeps it byte for byte.
Who you are: PM_ROLE=ceo|worker|human and PM_SESSION=<name> (goes into every commit).
The tracker: PM_DIR, or the nearest parent directory holding .pmtracker.

Find work:
  pm ready                 open tasks not blocked, sprint first (rank), then priority
  pm claim --next          take the next ready task (prints its id; exit 1 if none/lost race)
  pm claim 412 | pm start 412   take task 412 (fails unless it is still open)
  pm show 412              the whole task; pm history 412 shows its changes as diffs
  pm ls [--status S] [--priority P1] [--kind bug] [--sprint] [--text WORDS]
  pm blocked | pm grep REGEX | pm search WORDS | pm next (next free number)

Record as you go (each is one commit, safe with other sessions at once):
  pm new "Title" [--priority P0-P3] [--kind bug|feature|task|chore|docs|review|spike]
         [--problem HTML] [--blocked-by 12] [--spawned-from 412]   prints the new id
  pm log 412 "what you tried, found, decided"   (--html to keep markup)
  pm set 412 --fix "<p>...</p>" | --verification ... | --priority P1 | --title ...
  pm link 412 blocks 413   (types: related blocks blocked-by spawned-from duplicates)
  pm status 412 review | pm done 412   (--from open makes it compare-and-set)

Sprint (ceo role only; others are refused): pm promote 412 [--rank 1], pm demote 412,
pm rank 412 2, pm sprint. Workers file and log; they never promote their own work.

Checks: pm lint (exit 1 on any fault), pm doctor (repairs what is safe), pm audit.
Every listing takes --json: items {"id","title","status","priority","kind"[,"sprint"][,"owner"]}.
Statuses: open in-progress review done wontfix. File a new task for each bug you find
instead of widening the current one; link it with --spawned-from.
"""
