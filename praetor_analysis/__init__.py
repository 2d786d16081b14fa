"""praetor_analysis: exact probabilities for Warhammer: The Horus Heresy (2nd edition).

Every distribution is an immutable value object: each operation returns a new one.
"""
