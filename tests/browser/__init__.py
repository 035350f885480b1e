"""Browser tests: Chromium driven by Playwright."""

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
"""A phone's screen, as ``browser.new_context(**PHONE)`` takes it."""
