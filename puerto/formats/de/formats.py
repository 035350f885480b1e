"""Dates as the site writes them in German, the same on every page and in every email."""

DATE_FORMAT = "D, j. M Y"
DATETIME_FORMAT = "D, j. M Y, H:i T"
SHORT_DATE_FORMAT = "d.m.Y"
SHORT_DATETIME_FORMAT = "d.m.Y, H:i"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j. F"
YEAR_MONTH_FORMAT = "F Y"
