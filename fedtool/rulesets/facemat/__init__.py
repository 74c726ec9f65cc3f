"""Face to the Mat: the ruleset's data files (track, FAC deck, TV Move tables, Wild Card
charts, Highlight Reels), written fresh for fedtool. The engine is issue 5's next step; this
package is not yet in the ruleset registry."""
