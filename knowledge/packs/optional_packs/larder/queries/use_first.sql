-- UseFirst: the items in stock that go off first, in :place when it is given (else anywhere).
SELECT stock.label AS label, stock.best_before AS best_before, place.label AS place
FROM stock JOIN place ON place.id = stock.place_id
WHERE stock.quantity > 0 AND (:place IS NULL OR stock.place_id = :place)
ORDER BY stock.best_before, stock.label
LIMIT 3
