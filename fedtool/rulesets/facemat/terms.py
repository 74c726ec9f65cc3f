"""Face to the Mat's terms: TV grades, skills and symbols (rulebook section 3)."""

GRADES = ("AAA", "AA", "A", "B", "C", "D", "E", "F")  # 3.a: "Range: AAA (best) to F (worst)"
SKILLS = ("AGILE", "CHEAT", "FAVORITE", "HEAVY", "HELPED", "MEAN", "OBJECT", "POWERFUL", "QUICK", "SMART", "SPECIALTY", "STRONG")
SYMBOLS = ("star", "square", "circle")  # 3.d
