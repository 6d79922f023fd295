-- StockLevel: how much of :item is left, where it is kept and until when it is good.
SELECT stock.label AS label,
       CASE WHEN stock.quantity = 0 THEN 'none' ELSE stock.quantity || ' ' || stock.unit END
           AS amount,
       place.label AS place,
       stock.best_before AS best_before
FROM stock JOIN place ON place.id = stock.place_id
WHERE stock.id = :item
