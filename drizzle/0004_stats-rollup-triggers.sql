-- Daily rollups for GET /api/v1/stats, kept current by triggers so that every write path
-- (order service, CLI, direct inserts) updates them in the writer's own transaction.
-- day = created_at / 86400000 (UTC day number; created_at is epoch ms, so integer division).
-- Backfill first (the tables are new), then the triggers.
INSERT INTO `order_stats_daily` (`store_id`, `day`, `status`, `orders`, `revenue`)
SELECT `store_id`, `created_at` / 86400000, `status`, COUNT(*), SUM(`total`) FROM `orders` GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO `product_stats_daily` (`store_id`, `day`, `product_id`, `quantity`, `revenue`)
SELECT o.`store_id`, o.`created_at` / 86400000, i.`product_id`, SUM(i.`quantity`), SUM(i.`subtotal`)
FROM `order_items` i JOIN `orders` o ON o.`id` = i.`order_id` WHERE o.`status` <> 'cancelled' GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO `visit_stats_daily` (`store_id`, `day`, `visits`)
SELECT `store_id`, `created_at` / 86400000, COUNT(*) FROM `catalog_visits` GROUP BY 1, 2;
--> statement-breakpoint
CREATE TRIGGER `orders_stats_ai` AFTER INSERT ON `orders` BEGIN
  INSERT INTO `order_stats_daily` (`store_id`, `day`, `status`, `orders`, `revenue`)
  VALUES (NEW.`store_id`, NEW.`created_at` / 86400000, NEW.`status`, 1, NEW.`total`)
  ON CONFLICT (`store_id`, `day`, `status`) DO UPDATE SET `orders` = `orders` + 1, `revenue` = `revenue` + excluded.`revenue`;
END;
--> statement-breakpoint
CREATE TRIGGER `orders_stats_au` AFTER UPDATE OF `status`, `total`, `created_at`, `store_id` ON `orders`
WHEN OLD.`status` IS NOT NEW.`status` OR OLD.`total` IS NOT NEW.`total` OR OLD.`store_id` IS NOT NEW.`store_id`
  OR OLD.`created_at` / 86400000 IS NOT NEW.`created_at` / 86400000
BEGIN
  UPDATE `order_stats_daily` SET `orders` = `orders` - 1, `revenue` = `revenue` - OLD.`total`
  WHERE `store_id` = OLD.`store_id` AND `day` = OLD.`created_at` / 86400000 AND `status` = OLD.`status`;
  INSERT INTO `order_stats_daily` (`store_id`, `day`, `status`, `orders`, `revenue`)
  VALUES (NEW.`store_id`, NEW.`created_at` / 86400000, NEW.`status`, 1, NEW.`total`)
  ON CONFLICT (`store_id`, `day`, `status`) DO UPDATE SET `orders` = `orders` + 1, `revenue` = `revenue` + excluded.`revenue`;
END;
--> statement-breakpoint
-- Product figures count non-cancelled orders only: they move when an order enters or leaves
-- `cancelled` (or changes day/store), not on other status changes.
CREATE TRIGGER `orders_products_au` AFTER UPDATE OF `status`, `created_at`, `store_id` ON `orders`
WHEN (OLD.`status` = 'cancelled') IS NOT (NEW.`status` = 'cancelled') OR OLD.`store_id` IS NOT NEW.`store_id`
  OR OLD.`created_at` / 86400000 IS NOT NEW.`created_at` / 86400000
BEGIN
  INSERT INTO `product_stats_daily` (`store_id`, `day`, `product_id`, `quantity`, `revenue`)
  SELECT OLD.`store_id`, OLD.`created_at` / 86400000, `product_id`, -SUM(`quantity`), -SUM(`subtotal`)
  FROM `order_items` WHERE `order_id` = OLD.`id` AND OLD.`status` <> 'cancelled' GROUP BY `product_id`
  ON CONFLICT (`store_id`, `day`, `product_id`) DO UPDATE SET `quantity` = `quantity` + excluded.`quantity`, `revenue` = `revenue` + excluded.`revenue`;
  INSERT INTO `product_stats_daily` (`store_id`, `day`, `product_id`, `quantity`, `revenue`)
  SELECT NEW.`store_id`, NEW.`created_at` / 86400000, `product_id`, SUM(`quantity`), SUM(`subtotal`)
  FROM `order_items` WHERE `order_id` = NEW.`id` AND NEW.`status` <> 'cancelled' GROUP BY `product_id`
  ON CONFLICT (`store_id`, `day`, `product_id`) DO UPDATE SET `quantity` = `quantity` + excluded.`quantity`, `revenue` = `revenue` + excluded.`revenue`;
END;
--> statement-breakpoint
-- BEFORE: during the ON DELETE CASCADE of its items the order row is already gone, so the
-- order itself takes its items out of the product figures.
CREATE TRIGGER `orders_stats_bd` BEFORE DELETE ON `orders` BEGIN
  UPDATE `order_stats_daily` SET `orders` = `orders` - 1, `revenue` = `revenue` - OLD.`total`
  WHERE `store_id` = OLD.`store_id` AND `day` = OLD.`created_at` / 86400000 AND `status` = OLD.`status`;
  INSERT INTO `product_stats_daily` (`store_id`, `day`, `product_id`, `quantity`, `revenue`)
  SELECT OLD.`store_id`, OLD.`created_at` / 86400000, `product_id`, -SUM(`quantity`), -SUM(`subtotal`)
  FROM `order_items` WHERE `order_id` = OLD.`id` AND OLD.`status` <> 'cancelled' GROUP BY `product_id`
  ON CONFLICT (`store_id`, `day`, `product_id`) DO UPDATE SET `quantity` = `quantity` + excluded.`quantity`, `revenue` = `revenue` + excluded.`revenue`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_items_stats_ai` AFTER INSERT ON `order_items` BEGIN
  INSERT INTO `product_stats_daily` (`store_id`, `day`, `product_id`, `quantity`, `revenue`)
  SELECT o.`store_id`, o.`created_at` / 86400000, NEW.`product_id`, NEW.`quantity`, NEW.`subtotal`
  FROM `orders` o WHERE o.`id` = NEW.`order_id` AND o.`status` <> 'cancelled'
  ON CONFLICT (`store_id`, `day`, `product_id`) DO UPDATE SET `quantity` = `quantity` + excluded.`quantity`, `revenue` = `revenue` + excluded.`revenue`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_items_stats_au` AFTER UPDATE OF `quantity`, `subtotal`, `product_id`, `order_id` ON `order_items` BEGIN
  INSERT INTO `product_stats_daily` (`store_id`, `day`, `product_id`, `quantity`, `revenue`)
  SELECT o.`store_id`, o.`created_at` / 86400000, OLD.`product_id`, -OLD.`quantity`, -OLD.`subtotal`
  FROM `orders` o WHERE o.`id` = OLD.`order_id` AND o.`status` <> 'cancelled'
  ON CONFLICT (`store_id`, `day`, `product_id`) DO UPDATE SET `quantity` = `quantity` + excluded.`quantity`, `revenue` = `revenue` + excluded.`revenue`;
  INSERT INTO `product_stats_daily` (`store_id`, `day`, `product_id`, `quantity`, `revenue`)
  SELECT o.`store_id`, o.`created_at` / 86400000, NEW.`product_id`, NEW.`quantity`, NEW.`subtotal`
  FROM `orders` o WHERE o.`id` = NEW.`order_id` AND o.`status` <> 'cancelled'
  ON CONFLICT (`store_id`, `day`, `product_id`) DO UPDATE SET `quantity` = `quantity` + excluded.`quantity`, `revenue` = `revenue` + excluded.`revenue`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_items_stats_ad` AFTER DELETE ON `order_items` BEGIN
  INSERT INTO `product_stats_daily` (`store_id`, `day`, `product_id`, `quantity`, `revenue`)
  SELECT o.`store_id`, o.`created_at` / 86400000, OLD.`product_id`, -OLD.`quantity`, -OLD.`subtotal`
  FROM `orders` o WHERE o.`id` = OLD.`order_id` AND o.`status` <> 'cancelled'
  ON CONFLICT (`store_id`, `day`, `product_id`) DO UPDATE SET `quantity` = `quantity` + excluded.`quantity`, `revenue` = `revenue` + excluded.`revenue`;
END;
--> statement-breakpoint
CREATE TRIGGER `catalog_visits_stats_ai` AFTER INSERT ON `catalog_visits` BEGIN
  INSERT INTO `visit_stats_daily` (`store_id`, `day`, `visits`) VALUES (NEW.`store_id`, NEW.`created_at` / 86400000, 1)
  ON CONFLICT (`store_id`, `day`) DO UPDATE SET `visits` = `visits` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `catalog_visits_stats_ad` AFTER DELETE ON `catalog_visits` BEGIN
  UPDATE `visit_stats_daily` SET `visits` = `visits` - 1 WHERE `store_id` = OLD.`store_id` AND `day` = OLD.`created_at` / 86400000;
END;
