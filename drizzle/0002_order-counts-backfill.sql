-- Counters for orders that existed before order_counts did; later orders keep them current.
INSERT INTO `order_counts` (`store_id`, `status`, `count`)
SELECT `store_id`, `status`, COUNT(*) FROM `orders` GROUP BY `store_id`, `status`
ON CONFLICT (`store_id`, `status`) DO UPDATE SET `count` = excluded.`count`;
