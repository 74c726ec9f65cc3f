"""The fedhead's roster and the league's data out and in (issue 19): `fedtool roster`
(manage), `fedtool import` and `fedtool export` (transfer), `fedtool browse` (browse).

A layer beside mail/ and the site: it writes roster sheets and files outside the league,
which fedtool.league never does."""
