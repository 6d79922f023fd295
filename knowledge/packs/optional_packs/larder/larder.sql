-- The larder pack's database: what the household keeps, how much is left, where, and until
-- when it is good. Rebuilt read-only from this script when the pack is first queried.
CREATE TABLE place (
    id TEXT PRIMARY KEY,
    label TEXT NOT NULL
);
CREATE TABLE stock (
    id TEXT PRIMARY KEY,
    label TEXT NOT NULL,
    quantity NUMERIC NOT NULL CHECK (quantity >= 0),
    unit TEXT NOT NULL,
    place_id TEXT NOT NULL REFERENCES place (id),
    best_before TEXT NOT NULL  -- ISO date
);
INSERT INTO place VALUES
    ('cupboard', 'in the top cupboard'),
    ('fridge', 'in the fridge'),
    ('freezer', 'in the freezer'),
    ('shelf', 'on the pantry shelf');
INSERT INTO stock VALUES
    ('basmati_rice', 'basmati rice', 1200, 'g', 'cupboard', '2027-03-01'),
    ('rolled_oats', 'rolled oats', 350, 'g', 'cupboard', '2026-12-20'),
    ('plain_flour', 'plain flour', 0, 'g', 'shelf', '2027-01-15'),
    ('chickpeas_tin', 'tinned chickpeas', 3, 'tins', 'shelf', '2028-06-30'),
    ('chopped_tomatoes', 'chopped tomatoes', 2, 'tins', 'shelf', '2028-02-28'),
    ('olive_oil', 'olive oil', 0.4, 'l', 'shelf', '2027-09-01'),
    ('semi_skimmed_milk', 'semi-skimmed milk', 1.5, 'l', 'fridge', '2026-11-29'),
    ('cheddar', 'cheddar', 180, 'g', 'fridge', '2026-12-10'),
    ('eggs', 'eggs', 4, 'eggs', 'fridge', '2026-12-04'),
    ('greek_yoghurt', 'Greek yoghurt', 500, 'g', 'fridge', '2026-11-28'),
    ('frozen_peas', 'frozen peas', 800, 'g', 'freezer', '2027-05-01'),
    ('salmon_fillets', 'salmon fillets', 2, 'fillets', 'freezer', '2027-02-14');
