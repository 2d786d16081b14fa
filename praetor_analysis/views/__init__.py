"""Figures, the dashboard and HTML reports: the only code that imports plotly or ipywidgets."""
