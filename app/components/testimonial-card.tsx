import type { Testimonial } from "#app/content/testimonials";
import { TRUNCATE } from "#app/domain/truncate";
import { ExpandableText } from "./expandable-text";
import { StarRating } from "./icons";
import { InitialsAvatar } from "./pictures";

export function TestimonialCard({ testimonial }: { testimonial: Testimonial }) {
  return (
    <figure className="card">
      <StarRating stars={testimonial.stars} />
      <blockquote className="quote">
        <ExpandableText
          text={`“${testimonial.content}”`}
          limit={TRUNCATE.testimonial}
          subject={`the testimonial from ${testimonial.name ?? "a patient"}`}
        />
      </blockquote>
      {testimonial.name && testimonial.role && (
        <figcaption className="person">
          <InitialsAvatar name={testimonial.name} size={48} />
          <span>
            <span className="person__name">{testimonial.name}</span>
            <span className="person__role">{testimonial.role}</span>
          </span>
        </figcaption>
      )}
    </figure>
  );
}
