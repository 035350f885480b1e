"""Dates as the site writes them in English, the same on every page and in every email: the
weekday, the day before the month (a board-game site is read across the world), the time in
24 hours with the reader's time zone."""

DATE_FORMAT = "D j M Y"
DATETIME_FORMAT = "D j M Y, H:i T"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
