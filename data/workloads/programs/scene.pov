// POV-Ray 3.7 scene (SPEC CPU2017's 511.povray renders with POV-Ray): reflective and refractive
// spheres over a checkered plane, CSG, area light, procedural textures.
#version 3.7;
global_settings { assumed_gamma 1.0 max_trace_level 6 }
camera { location <0, 3.2, -9> look_at <0, 0.8, 0> angle 55 }
light_source { <-6, 10, -6> color rgb 1.1 area_light <2, 0, 0>, <0, 0, 2>, 3, 3 adaptive 1 }
light_source { <5, 6, -8> color rgb <0.4, 0.4, 0.5> }
sky_sphere { pigment { gradient y color_map { [0 color rgb <0.7, 0.8, 1>] [1 color rgb <0.2, 0.3, 0.7>] } } }
plane { y, 0 pigment { checker color rgb 0.9 color rgb 0.15 scale 0.8 } finish { reflection 0.15 } }
#declare I = 0;
#while (I < 14)
  #declare A = I * 2 * pi / 14;
  sphere { <3.4 * cos(A), 0.5 + 0.2 * mod(I, 3), 3.4 * sin(A) + 1>, 0.45 + 0.05 * mod(I, 4)
    #if (mod(I, 3) = 0)
      pigment { color rgbf <0.8, 0.95, 1, 0.9> } finish { reflection 0.1 phong 0.8 } interior { ior 1.5 }
    #else
      pigment { granite scale 0.3 color_map { [0 color rgb <0.8, 0.3, 0.2>] [1 color rgb <0.2, 0.5, 0.9>] } }
      normal { bumps 0.4 scale 0.1 } finish { phong 0.5 reflection 0.2 }
    #end
  }
  #declare I = I + 1;
#end
difference {
  box { <-1, 0, -1>, <1, 2, 1> }
  sphere { <0, 1, 0>, 1.3 }
  cylinder { <0, 1, -2>, <0, 1, 2>, 0.5 }
  pigment { marble turbulence 0.8 color_map { [0 color rgb 1] [1 color rgb <0.3, 0.2, 0.1>] } }
  finish { specular 0.6 reflection 0.3 }
  rotate y * 30 translate <0, 0, 1>
}
torus { 1.6, 0.15 rotate x * 70 translate <0, 2.6, 1> pigment { color rgb <1, 0.8, 0.2> } finish { metallic reflection 0.6 } }
