"""Pictures and HTML drawn from the rules: charts, formations, diagrams and decision tables.

Nothing here decides a rule: each view reads the answers of the rules and odds modules and
draws them as theme-aware SVG or HTML, with no asset from another host.
"""
