"""skills: agent skills (Agent Skills format, one folder per skill holding SKILL.md) that encode
this shop's judgment, the operating-manual template, and the `skills` CLI that lists,
installs and lints them and keeps the manual's rules.

    catalog   find and parse the skill folders (frontmatter + body)
    markdown  command lines and links named in a skill or the manual
    clitree   the real click command trees of pm, instances, demo, engines and skills
    tokens    how tokens are counted (cl100k_base BPE)
    lint      the format rules, the token budget, links, commands and flags
    install   copy or link skills into an agent's skill folder
    manual    the operating manual: init/merge, rules, their checks
    cli       the `skills` command
"""
