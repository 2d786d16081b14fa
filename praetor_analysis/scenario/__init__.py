"""The JSON contract of ``praetor calc``: documents in, results out."""
