# Summaries of events.json: grouping, sorting, string and numeric work.
def round2: (. * 100 | floor) / 100;
{
  by_kind: (group_by(.kind) | map({kind: .[0].kind, n: length, total: (map(.value) | add | round2)})),
  by_region: (group_by(.geo.region) | map({region: .[0].geo.region, users: (map(.user) | unique | length),
             zones: (map(.geo.zone) | unique | length)})),
  top_users: (group_by(.user) | map({user: .[0].user, spent: (map(select(.kind == "purchase") | .value) | add // 0)})
              | sort_by(-.spent) | .[:25]),
  tags: ([.[].tags[]] | group_by(.) | map({tag: .[0], n: length}) | sort_by(-.n, .tag) | .[:50]),
  hours: (map(.ts % 86400 / 3600 | floor) | group_by(.) | map(length)),
  long_tags: ([.[] | select(.tags | map(length) | add > 14) | .id] | length),
  sample: (map(select(.id % 997 == 0) | "\(.user)/\(.kind)/\(.geo.region | ascii_upcase)") | join(","))
}
