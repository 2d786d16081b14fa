"""BattleScribe files: safe reading, the importer, rosters."""
