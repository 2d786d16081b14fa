"""Data shipped with praetor_analysis (catalogs, tables, example scenarios); read with importlib.resources."""
