"""instances: a live, private review URL for every task branch.

Modules, pure first (no I/O in the first four):
    names       instance names (slugs) and branch-name validation
    config      instances.toml -> AppConfig
    nginx_conf  nginx.conf, the include file (render_locations) and htpasswd lines, as text
    fmt         byte counts, ages and timestamps as text
    checks      sub-path checks through nginx (redirect, page, assets, websocket, loopback-only)
    browser_check  the page's own requests in headless Chromium, each under the prefix
    registry    the JSON registry under bounded file locks, port leases
    procs       service processes: start, identity (pid + start time + token), stop, PSS
    probe       cheap loopback HTTP probes
    nginx       the private nginx and the system-nginx include: apply, verify, restore
    gitops      worktrees, work-at-risk checks, merging into a checked-out main (plumbing.git)
    pm_link     the task title and log entries through pm.api
    status, doctor, approve    `ls`, crash reconciliation, approval (each given the manager)
    actions     what the supervisor or doctor did, noted on the record and in the log
    supervisor  the process that applies idle_stop, memory_limit and doctor on its own
    dashboard   the Flask page at nginx's root the supervisor serves (templates/, static/)
    manager     class Instances: the lifecycle (up, down, restart, rm) orchestrating the above
    cli         the click command line
"""
