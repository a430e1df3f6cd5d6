"""instances: a live, private review URL for every task branch.

Modules, core first (no I/O in the first three):
    names       instance names (slugs) and branch-name validation
    config      instances.toml -> AppConfig
    nginx_conf  nginx.conf, the include file (render_locations) and htpasswd lines, as text
    checks      sub-path checks through nginx (redirect, page, assets, websocket, loopback-only)
    registry    the JSON registry under an fcntl lock, atomic writes, port leases
    procs       service processes: start, identity (pid + start time + token), stop, PSS
    probe       cheap loopback HTTP probes
    nginx       the private nginx and the system-nginx include: apply, verify, restore
    gitops      worktrees, work-at-risk checks, merging into a checked-out main
    pm_link     the task title and log entries through pm.api
    core        the lifecycle (up, down, restart, rm) tying the above together
    status, doctor, approve    `ls`, crash reconciliation, approval
    cli         the click command line
"""
