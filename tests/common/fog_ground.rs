//! The fog test ground (tests/fog.rs and tests/ui_fog.rs): after one game
//! move red's outpost sees the column in the plain, a blind in the hamlet,
//! and not the host in the desert behind it, which cuts its road home.

pub const MAP: &str = r##"name = "Fog test ground"

[[regions]]
id = "red-home"
name = "Redhome"
terrain = "urban"
x = 0.0
y = 0.0
features = ["town"]

[[regions]]
id = "deep"
name = "Deep Desert"
terrain = "desert"
x = 100.0
y = 0.0

[[regions]]
id = "outpost"
name = "Outpost"
terrain = "open"
x = 200.0
y = 0.0

[[regions]]
id = "plain"
name = "Plain"
terrain = "open"
x = 230.0
y = 0.0

[[regions]]
id = "hamlet"
name = "Hamlet"
terrain = "cultivated"
x = 200.0
y = 40.0
features = ["village"]

[[regions]]
id = "blue-home"
name = "Bluehome"
terrain = "open"
x = 400.0
y = 0.0

[[roads]]
from = "red-home"
to = "deep"
kind = "road"
miles = 100.0

[[roads]]
from = "deep"
to = "outpost"
kind = "road"
miles = 100.0

[[roads]]
from = "outpost"
to = "plain"
kind = "road"
miles = 30.0

[[roads]]
from = "outpost"
to = "hamlet"
kind = "track"
miles = 40.0

[[roads]]
from = "plain"
to = "blue-home"
kind = "road"
miles = 170.0
"##;

pub const CAMPAIGN: &str = r##"title = "Fog test"
map = "map.toml"
start_date = 1895-03-01
seed = 7
rules = "scruby-1961"

[[sides]]
id = "red"
name = "Red Army"
colour = "#cc0000"
army = "regular"

[[sides]]
id = "blue"
name = "Blue Army"
colour = "#0000cc"
army = "regular"

[[hqs]]
side = "red"
wing = "left"
region = "red-home"

[[hqs]]
side = "red"
wing = "centre"
region = "red-home"

[[hqs]]
side = "red"
wing = "right"
region = "red-home"

[[hqs]]
side = "blue"
wing = "left"
region = "blue-home"

[[hqs]]
side = "blue"
wing = "centre"
region = "blue-home"

[[hqs]]
side = "blue"
wing = "right"
region = "blue-home"

[[forces]]
id = "red-outpost"
name = "Red Outpost"
side = "red"
region = "outpost"

  [[forces.stands]]
  id = 1
  name = "Outpost Company"
  kind = "line_infantry"

[[forces]]
id = "seen-column"
name = "Seen Column"
side = "blue"
region = "plain"

  [[forces.stands]]
  id = 10
  name = "Column Company"
  kind = "line_infantry"

[[forces]]
id = "hamlet-garrison"
name = "Hamlet Garrison"
side = "blue"
region = "hamlet"

  [[forces.stands]]
  id = 20
  name = "Garrison Company"
  kind = "line_infantry"

  [[forces.stands]]
  id = 21
  name = "Garrison Rifles"
  kind = "light_infantry"

[[forces]]
id = "desert-host"
name = "Desert Host"
side = "blue"
region = "deep"

  [[forces.stands]]
  id = 30
  name = "Host Spearmen"
  kind = "native_spearmen"

  [[forces.stands]]
  id = 31
  name = "Host Horsemen"
  kind = "light_cavalry"
"##;
