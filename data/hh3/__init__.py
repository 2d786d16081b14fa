"""The 3rd edition's shipped catalogs (built by praetor import from BattleScribe's JSON data)."""
