ALTER TABLE `catalog_visits` ADD `count` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
DROP TRIGGER `catalog_visits_stats_ai`;--> statement-breakpoint
CREATE TRIGGER `catalog_visits_stats_ai` AFTER INSERT ON `catalog_visits` BEGIN
  INSERT INTO `visit_stats_daily` (`store_id`, `day`, `visits`) VALUES (NEW.`store_id`, NEW.`created_at` / 86400000, NEW.`count`)
  ON CONFLICT (`store_id`, `day`) DO UPDATE SET `visits` = `visits` + excluded.`visits`;
END;
--> statement-breakpoint
DROP TRIGGER `catalog_visits_stats_ad`;--> statement-breakpoint
CREATE TRIGGER `catalog_visits_stats_ad` AFTER DELETE ON `catalog_visits` BEGIN
  UPDATE `visit_stats_daily` SET `visits` = `visits` - OLD.`count` WHERE `store_id` = OLD.`store_id` AND `day` = OLD.`created_at` / 86400000;
END;
